export { issueImageApiKey, revokeImageApiKey, verifyImageApiKey } from "./api-keys.ts";
export { findSerial, serialImageKey } from "./serial-numbers.ts";
