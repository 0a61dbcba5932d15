// Certificates for the TLS tests, made with openssl in a temporary folder: a
// CA, a server certificate it signs for 127.0.0.1 and localhost (IP and DNS
// SANs: clients reach the nodes by address and check it), and a second CA
// that signs nothing, to stand for a wrong one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCertificates {
  caFile: string;
  certFile: string;
  keyFile: string;
  /** A CA that did not sign the server's certificate. */
  otherCaFile: string;
  remove(): void;
}

function openssl(args: string[]): void {
  execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
}

function selfSignedCa(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${name}`, "-keyout", key, "-out", cert]);
  return { cert, key };
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), "mw-tls-"));
  const ca = selfSignedCa(dir, "mw-test-ca");
  const other = selfSignedCa(dir, "mw-other-ca");
  const keyFile = path.join(dir, "server.key");
  const csr = path.join(dir, "server.csr");
  const certFile = path.join(dir, "server.crt");
  const extensions = path.join(dir, "server.ext");
  // No extendedKeyUsage: the nodes present the same certificate as clients of one another (replication, the cluster bus).
  writeFileSync(extensions, "subjectAltName = IP:127.0.0.1, DNS:localhost\nbasicConstraints = CA:FALSE\n");
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", keyFile, "-out", csr]);
  openssl(["x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-days", "2", "-extfile", extensions, "-out", certFile]);
  return { caFile: ca.cert, certFile, keyFile, otherCaFile: other.cert, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
