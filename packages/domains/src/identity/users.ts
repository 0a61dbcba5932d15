import { AppError, errors } from "@mw/platform/core";
import { isUniqueViolation } from "@mw/platform/database";
import { hashPassword, randomToken, safeEqual, sha256Hex, verifyPassword } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";
import { CAPABILITIES, parseCapabilities, type Capability } from "./capabilities.ts";
import type { Principal, UserPrincipal } from "./principal.ts";
import type { SessionRecord } from "./sessions.ts";

/**
 * Application passwords look like `<lookup 16>.<secret 43>`. The lookup part
 * finds the row; the secret has 256 bits of entropy, so a SHA-256 of it is as
 * safe as a slow KDF and keeps Basic authentication cheap on every request.
 */
const APP_PASSWORD = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

interface IssuedAppPassword {
  id: number;
  name: string;
  application_password: string;
}

function toPrincipal(user: { id: number; login: string; capabilities: string; staff_id: number | null }, via: Principal["via"]): UserPrincipal {
  return { userId: user.id, login: user.login, capabilities: parseCapabilities(user.capabilities), via, staffId: user.staff_id };
}

async function findUser({ prisma }: Pick<Connections, "prisma">, login: string) {
  const user = await prisma.user.findUnique({ where: { login } });
  if (!user) throw new AppError(404, "rest_user_invalid_login", `no user with login "${login}"`);
  return user;
}

function newAppPassword(name: string) {
  const lookup = randomToken(12);
  const secret = randomToken(32);
  return { row: { name, lookup_id: lookup, secret_hash: sha256Hex(secret) }, plain: `${lookup}.${secret}` };
}

async function issueAppPassword({ prisma }: Pick<Connections, "prisma">, userId: number, name: string): Promise<IssuedAppPassword> {
  const issued = newAppPassword(name);
  const row = await prisma.applicationPassword.create({ data: { ...issued.row, user_id: userId } });
  return { id: row.id, name: row.name, application_password: issued.plain };
}

/** Creates the user and its first application password in one statement: both or neither. */
export async function createUser(
  { prisma }: Pick<Connections, "prisma">,
  input: { login: string; capabilities: Capability[]; password?: string; appPasswordName?: string; staffId?: number },
): Promise<{ id: number; login: string; capabilities: Capability[]; staff_id: number | null } & IssuedAppPassword> {
  if (!/^[A-Za-z0-9._@-]{1,60}$/.test(input.login)) {
    throw errors.invalidInput("login must be 1-60 letters, digits or . _ @ -");
  }
  const issued = newAppPassword(input.appPasswordName ?? "cli");
  try {
    const user = await prisma.user.create({
      data: {
        login: input.login,
        capabilities: input.capabilities.join(","),
        staff_id: input.staffId ?? null,
        password_hash: input.password ? await hashPassword(input.password) : null,
        app_passwords: { create: issued.row },
      },
      include: { app_passwords: true },
    });
    const appPassword = user.app_passwords[0]!;
    return {
      id: user.id,
      login: user.login,
      capabilities: input.capabilities,
      staff_id: user.staff_id,
      name: appPassword.name,
      application_password: issued.plain,
    };
  } catch (error) {
    if (isUniqueViolation(error)) {
      // Which unique key clashed: the login (whoever holds the staff id, it may be this very user), else the staff id.
      const existing = await prisma.user.findUnique({ where: { login: input.login } });
      if (existing) {
        const grant = input.capabilities.filter((capability) => !parseCapabilities(existing.capabilities).includes(capability));
        const hint = grant.length ? `; to give it ${grant.join(", ")}: pnpm cli user:grant ${existing.login} ${grant.join(" ")}` : "";
        throw errors.conflict("rest_user_exists", `a user with login "${existing.login}" already exists${hint}`);
      }
      const holder = input.staffId === undefined ? null : await prisma.user.findUnique({ where: { staff_id: input.staffId } });
      if (holder) throw errors.conflict("rest_user_exists", `staff id ${input.staffId} already belongs to user "${holder.login}"`);
      throw errors.conflict("rest_user_exists", `a user with login "${input.login}" already exists`);
    }
    throw error;
  }
}

/**
 * Adds and removes capabilities of an existing user; the result is what it
 * holds now. Effective on its next request: every request reads them.
 */
export async function changeCapabilities(
  deps: Pick<Connections, "prisma">,
  login: string,
  change: { grant?: Capability[]; revoke?: Capability[]; staffId?: number },
): Promise<{ login: string; capabilities: Capability[]; staff_id?: number }> {
  const user = await findUser(deps, login);
  const held = new Set(parseCapabilities(user.capabilities));
  for (const capability of change.grant ?? []) held.add(capability);
  for (const capability of change.revoke ?? []) held.delete(capability);
  const capabilities = CAPABILITIES.filter((capability) => held.has(capability));
  try {
    const updated = await deps.prisma.user.update({
      where: { id: user.id },
      data: { capabilities: capabilities.join(","), ...(change.staffId !== undefined && { staff_id: change.staffId }) },
    });
    return { login: updated.login, capabilities, ...(updated.staff_id !== null && { staff_id: updated.staff_id }) };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const holder = await deps.prisma.user.findUnique({ where: { staff_id: change.staffId } });
    throw errors.conflict("rest_user_exists", `staff id ${change.staffId} already belongs to user "${holder?.login ?? "another user"}"`);
  }
}

export async function setLoginPassword(deps: Pick<Connections, "prisma">, login: string, password: string): Promise<void> {
  if (password.length < 12) throw errors.invalidInput("password must be at least 12 characters");
  const user = await findUser(deps, login);
  await deps.prisma.user.update({ where: { id: user.id }, data: { password_hash: await hashPassword(password) } });
}

export async function createAppPasswordFor(deps: Pick<Connections, "prisma">, login: string, name: string): Promise<IssuedAppPassword> {
  const user = await findUser(deps, login);
  return issueAppPassword(deps, user.id, name);
}

/** Revokes by id or by name; revocation takes effect on the next request (nothing caches it). */
export async function revokeAppPassword(
  deps: Pick<Connections, "prisma">,
  login: string,
  which: { id?: number; name?: string },
): Promise<number> {
  const user = await findUser(deps, login);
  const result = await deps.prisma.applicationPassword.updateMany({
    where: { user_id: user.id, revoked_at: null, ...(which.id !== undefined ? { id: which.id } : { name: which.name }) },
    data: { revoked_at: new Date() },
  });
  return result.count;
}

/** HTTP Basic with an application password; null when the pair is not valid. */
export async function verifyAppPassword({ prisma }: Pick<Connections, "prisma">, login: string, password: string): Promise<Principal | null> {
  const match = APP_PASSWORD.exec(password.replace(/\s+/g, ""));
  if (!match) return null;
  const [, lookup, secret] = match as unknown as [string, string, string];
  const row = await prisma.applicationPassword.findUnique({ where: { lookup_id: lookup }, include: { user: true } });
  if (!row || row.revoked_at || row.user.login !== login || !safeEqual(row.secret_hash, sha256Hex(secret))) return null;
  // Recording last use is bookkeeping: never let it fail or slow the request noticeably.
  const minuteAgo = Date.now() - 60_000;
  if (!row.last_used_at || row.last_used_at.getTime() < minuteAgo) {
    void prisma.applicationPassword.update({ where: { id: row.id }, data: { last_used_at: new Date() } }).catch(() => {});
  }
  return toPrincipal(row.user, "application_password");
}

/** A hash no password matches, verified for logins that have none so they take as long as real ones. */
let unknownLoginHash: Promise<string> | undefined;

/**
 * What a session keeps of the password it was started with: a digest of the
 * stored hash, which changes (a new salt) with every password set, so
 * setting one, by whatever path, ends every session started before.
 */
function passwordStamp(passwordHash: string): string {
  return sha256Hex(passwordHash);
}

/**
 * The user a login names, matched as the database compares logins (its
 * collation ignores case, accents and trailing spaces), or null.
 */
export function findLoginUser({ prisma }: Pick<Connections, "prisma">, login: string) {
  return prisma.user.findUnique({ where: { login } });
}

type LoginUser = NonNullable<Awaited<ReturnType<typeof findLoginUser>>>;

/**
 * Checks the user's own password (for a browser session). No user, or one
 * without a password, costs the same scrypt as a wrong password: answering
 * at once would tell an attacker which logins exist.
 */
export async function verifyLoginPassword(user: LoginUser | null, password: string): Promise<{ principal: UserPrincipal; passwordStamp: string } | null> {
  if (!user?.password_hash) {
    await verifyPassword(password, await (unknownLoginHash ??= hashPassword(randomToken(32))));
    return null;
  }
  return (await verifyPassword(password, user.password_hash)) ? { principal: toPrincipal(user, "session"), passwordStamp: passwordStamp(user.password_hash) } : null;
}

/** The user of a session while the password it was started with is still theirs; null once the user is gone or the password changed. */
export async function sessionPrincipal({ prisma }: Pick<Connections, "prisma">, session: SessionRecord): Promise<Principal | null> {
  const user = await prisma.user.findUnique({ where: { id: session.userId } });
  if (!user?.password_hash || typeof session.password !== "string" || !safeEqual(session.password, passwordStamp(user.password_hash))) return null;
  return toPrincipal(user, "session");
}

const ADMINISTERING: readonly Capability[] = ["manage_options", "manage_middleware"];

/** Whether anyone may administer the platform yet: a user holding manage_options or manage_middleware. */
export async function administratorExists({ prisma }: Pick<Connections, "prisma">): Promise<boolean> {
  // `contains` narrows the rows; the parse tells a capability from a longer name containing it.
  const holders = await prisma.user.findMany({ where: { OR: ADMINISTERING.map((capability) => ({ capabilities: { contains: capability } })) }, select: { capabilities: true } });
  return holders.some((user) => parseCapabilities(user.capabilities).some((capability) => ADMINISTERING.includes(capability)));
}
