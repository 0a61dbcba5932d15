// `eval "$(pnpm -s api:env)"`: the `export API=...` line `pnpm start` prints, from the same settings (.env included).
import { getConfigOrExit } from "@mw/platform";
import { apiExport } from "./support/start-banner.ts";

console.log(apiExport(getConfigOrExit("api")));
