import { z } from "zod";
import { AppError, decryptSecret, encryptSecret } from "@mw/platform";

/**
 * A storefront's API credentials. storefront_a: API account client id and
 * access token (`X-Auth-Client` / `X-Auth-Token`); storefront_b: consumer key
 * and consumer secret (HTTP Basic user / password).
 */
export interface SiteCredentials {
  client_id: string;
  access_token: string;
}

const credentialsShape = z.object({ client_id: z.string(), access_token: z.string() });

/** One envelope for the pair (the column is a single TEXT); rebuilt so no stray member is ever stored. */
export function sealCredentials(credentials: SiteCredentials, key: Buffer): string {
  return encryptSecret(JSON.stringify({ client_id: credentials.client_id, access_token: credentials.access_token }), key);
}

export function openCredentials(sealed: string, key: Buffer): SiteCredentials {
  try {
    return credentialsShape.parse(JSON.parse(decryptSecret(sealed, key)));
  } catch {
    // No cause attached: a JSON.parse message quotes the decrypted text. Retrying cannot help either,
    // the envelope or ENCRYPTION_KEY is wrong and an operator has to enter the credentials again.
    const failure = new AppError(500, "credentials_unreadable", "The stored site credentials cannot be decrypted (was ENCRYPTION_KEY changed?).");
    failure.permanent = true;
    throw failure;
  }
}
