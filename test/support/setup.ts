import { testEnv } from "./env.ts";

Object.assign(process.env, testEnv());
