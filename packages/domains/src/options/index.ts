export { DEFAULT_URGENCY_CRITERIA, OPTIONS, SUGGESTED_MODELS, isOptionName, type OptionName } from "./definitions.ts";
export { OPTIONS_CACHE_MS, OptionStore, openOptionStore } from "./store.ts";
