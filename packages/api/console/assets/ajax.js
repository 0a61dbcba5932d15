// Staff AJAX calls from console pages: the session cookie plus the page's nonce (design 10.8).
const nonce = document.querySelector('meta[name="mw-nonce"]')?.content ?? "";

export function sessionNonce() {
  return nonce;
}

/** Calls /scp/ajax.php/<path>; answers `data`, or throws an Error with the server's message. */
export async function ajax(method, path, body) {
  let res;
  try {
    res = await fetch(`/scp/ajax.php/${path}`, {
      method,
      credentials: "same-origin",
      headers: { "x-nonce": nonce, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("The server could not be reached.");
  }
  const answer = await res.json().catch(() => null);
  if (answer?.success === true) return answer.data;
  const message = typeof answer?.data === "string" ? answer.data : answer?.message;
  throw new Error(message || `The request failed (${res.status}).`);
}
