import { isIP } from "node:net";
import { connect, type PeerCertificate } from "node:tls";
import { AppError, formatDay, forEachLimited } from "@mw/platform/core";
import { egressGuard, egressRefusalIn, type EgressGuard } from "@mw/platform/egress";
import { upstreamError } from "@mw/platform/http";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { alertEmailJob } from "../notifications/index.ts";
import { daysFromNow, daysLeft } from "./expiry.ts";
import { SSL_ALERT_DAYS, sslAlertJobId } from "./jobs.ts";
import { activeHttpsSites, siteForJob, storeCertificate } from "./site-results.ts";
import type { ManagedSiteRow } from "./sites.ts";

/** Sites whose certificates one sweep checks at once. */
const SWEEP_CONCURRENCY = 5;

interface Certificate {
  host: string;
  port: number;
  issuer: string | null;
  subject: string | null;
  valid_from: string;
  expires_at: string;
  days_left: number;
  /** Whether a browser would accept it (chain and host name); `trust_error` says why not. */
  trusted: boolean;
  trust_error: string | null;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `Let's Encrypt (R11)`: the issuing organisation with its certificate's name. */
function issuerOf(cert: PeerCertificate): string | null {
  const org = first(cert.issuer?.O);
  const name = first(cert.issuer?.CN);
  return org && name ? `${org} (${name})` : (org ?? name ?? null);
}

/**
 * A TLS handshake with the site's host (SNI with its name) that reads the
 * certificate it presents, trusted or not: an expiring self-signed
 * certificate is still worth knowing about. Bounded by `timeoutMs` from the
 * DNS lookup to the certificate. The site's URL was entered: the handshake
 * goes only to an address the egress guard lets through.
 */
function probeCertificate(siteUrl: string, timeoutMs: number, egress: EgressGuard): Promise<Certificate> {
  const url = new URL(siteUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || 443);
  const where = `${host}:${port}`;
  const refused = egress.literalRefusal(host);
  if (refused) return Promise.reject(upstreamError(`the site at ${where}`, refused));
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, lookup: egress.lookup, servername: isIP(host) ? undefined : host, rejectUnauthorized: false });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new AppError(504, "tls_timeout", `TLS handshake with ${where}: no certificate within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (egressRefusalIn(error)) return reject(upstreamError(`the site at ${where}`, error));
      reject(new AppError(502, "tls_failed", `TLS handshake with ${where} failed: ${error.code ?? error.message}`));
    });
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      const cert = socket.getPeerCertificate();
      socket.end();
      if (!cert?.valid_to) return reject(new AppError(502, "tls_failed", `TLS handshake with ${where}: the server presented no certificate`));
      const expires = new Date(cert.valid_to);
      resolve({
        host,
        port,
        issuer: issuerOf(cert),
        subject: first(cert.subject?.CN) ?? null,
        valid_from: new Date(cert.valid_from).toISOString(),
        expires_at: expires.toISOString(),
        days_left: daysLeft(expires)!,
        trusted: socket.authorized,
        trust_error: socket.authorized ? null : String(socket.authorizationError ?? "untrusted"),
      });
    });
  });
}

/** Checks one site and stores issuer, expiry and when it was checked on its row (a rerun overwrites them). */
async function checkSite(deps: Pick<Connections, "prisma" | "config">, site: ManagedSiteRow): Promise<Certificate> {
  if (!site.url.startsWith("https://")) throw AppError.permanent(`Site ${site.id} (${site.url}) is not served over https: it has no certificate to check.`, "not_https");
  const cert = await probeCertificate(site.url, deps.config.HTTP_TIMEOUT_MS, egressGuard(deps.config));
  await storeCertificate(deps, site.id, cert);
  return cert;
}

/** check_ssl {id}. */
export async function checkSiteCertificate(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "progress">, siteId: number) {
  const site = await siteForJob(deps, siteId);
  await deps.progress(0, 1, `TLS handshake with ${site.url}`);
  const cert = await checkSite(deps, site);
  await deps.progress(1, 1, `${cert.days_left} days left`);
  return { site_id: site.id, url: site.url, ...cert };
}

function alertFor(site: ManagedSiteRow, cert: Certificate) {
  const when = cert.days_left < 0 ? `expired ${-cert.days_left} day(s) ago` : `expires in ${cert.days_left} day(s)`;
  return {
    subject: `Certificate of ${site.name} ${when}`.slice(0, 200),
    text: [
      `The TLS certificate of ${site.name} (${site.url}) ${when}.`,
      "",
      `Expires: ${cert.expires_at}`,
      `Issuer: ${cert.issuer ?? "unknown"}`,
      `Client: ${site.client ?? "-"}`,
      `Hosting: ${site.hosting ?? "-"}`,
    ].join("\n"),
  };
}

/**
 * check_ssl without id, and the daily sweep: every active https site. One
 * site failing is recorded in the result, not the end of the sweep; a
 * certificate expiring within SSL_ALERT_DAYS gets an alert e-mail, once per
 * site per day (its job id), however often the sweep runs.
 */
export async function checkAllCertificates(deps: Pick<Connections, "prisma" | "config" | "queues"> & Pick<JobRun, "log" | "progress">) {
  const sites = await activeHttpsSites(deps);
  const day = formatDay(new Date());
  const failed: { site_id: number; url: string; error: string }[] = [];
  const expiring: { site_id: number; url: string; days_left: number; expires_at: string }[] = [];
  let done = 0;
  await deps.progress(0, sites.length, "checking certificates");
  await forEachLimited(sites, SWEEP_CONCURRENCY, async (site) => {
    try {
      const cert = await checkSite(deps, site);
      if (new Date(cert.expires_at) <= daysFromNow(SSL_ALERT_DAYS)) {
        expiring.push({ site_id: site.id, url: site.url, days_left: cert.days_left, expires_at: cert.expires_at });
        await deps.queues.add(alertEmailJob, alertFor(site, cert), { jobId: sslAlertJobId(site.id, day) });
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failed.push({ site_id: site.id, url: site.url, error: error.message });
      deps.log.warn("certificate check failed", { site_id: site.id, url: site.url, error: error.message });
    }
    done += 1;
    await deps.progress(done, sites.length, site.url);
  });
  return { checked: sites.length - failed.length, failed, expiring };
}
