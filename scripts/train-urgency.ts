// `pnpm train:urgency`: learns the built-in urgency engine's weights from the
// training part of the labelled set (test/fixtures/urgency-labelled) and
// writes packages/shared/src/ai/urgency-weights.json, which is committed;
// test/ai/urgency-engine.test.ts checks that it matches a re-training.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TRAIN_TICKETS } from "../test/fixtures/urgency-labelled/index.ts";
import { RUBRIC_POINTS } from "./urgency-model/rubric-points.ts";
import { trainUrgencyWeights, WEIGHTS_FILE, weightsFile } from "./urgency-model/train.ts";

const trained = trainUrgencyWeights(TRAIN_TICKETS, RUBRIC_POINTS);
writeFileSync(WEIGHTS_FILE, weightsFile(trained, TRAIN_TICKETS.length));
console.log(`wrote ${fileURLToPath(WEIGHTS_FILE)}: base ${trained.bias}, ${Object.keys(trained.weights).length} weights, from ${TRAIN_TICKETS.length} tickets`);
