// `pnpm train:urgency`: trains the built-in urgency model on the training
// part of the labelled set (test/fixtures/urgency-labelled) and writes
// packages/domains/src/urgency/engine/model.json, which is committed;
// test/urgency/urgency-rules.test.ts checks that it matches a re-training.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TRAIN_TICKETS } from "../test/fixtures/urgency-labelled/index.ts";
import { MODEL_FILE, modelFile, trainUrgencyModel } from "./urgency-model/train.ts";

const model = trainUrgencyModel(TRAIN_TICKETS);
writeFileSync(MODEL_FILE, modelFile(model, TRAIN_TICKETS.length));
console.log(`wrote ${fileURLToPath(MODEL_FILE)}: ${model.terms.length} terms, from ${TRAIN_TICKETS.length} tickets`);
