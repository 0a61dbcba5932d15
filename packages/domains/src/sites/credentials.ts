import { z } from "zod";
import { AppError } from "@mw/platform/core";
import { decryptSecret, encryptSecret } from "@mw/platform/crypto";

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

/** What a read shows for the stored access token: never the token, only that one is stored. */
export const TOKEN_MASK = "********";

/**
 * The credentials as the single-site GET shows them (spec 1, 2.2 names both
 * members): the client id, and the token masked, since whoever may edit a
 * site need not be able to take its token elsewhere.
 */
export function shownCredentials(credentials: SiteCredentials): SiteCredentials {
  return { client_id: credentials.client_id, access_token: TOKEN_MASK };
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
