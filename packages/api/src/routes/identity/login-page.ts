import express, { type Request, type Router } from "express";
import type { AppContext } from "../../context.ts";
import { sameOriginPath } from "../../http/same-origin-path.ts";

export const LOGIN_PATH = "/login";

// Served from this host only: the page must work with no internet access.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** `next`: where the browser goes once signed in, already checked to be a path on this platform. */
function page(next: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign in · Middleware</title>
<link rel="stylesheet" href="${LOGIN_PATH}/login.css">
<script defer src="${LOGIN_PATH}/login.js"></script>
</head>
<body>
<main>
<h1>Middleware</h1>
<p>Sign in to watch and retry the platform's jobs.</p>
<form id="login" data-next="${escapeHtml(next)}" novalidate>
<label for="login-name">Login</label>
<input id="login-name" name="login" autocomplete="username" required maxlength="60" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<p id="error" role="alert" hidden></p>
<button type="submit">Sign in</button>
</form>
<p class="hint">Scripts use an application password with HTTP Basic instead.</p>
</main>
</body>
</html>`;
}

const CSS = `body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#151a21;color:#e6e9ee;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{width:min(22rem,90vw);padding:2rem;background:#1e252f;border-radius:8px;box-shadow:0 4px 24px #0006}
h1{margin:0 0 .25rem;font-size:1.4rem}p{color:#a9b2bf;margin:.25rem 0 1rem}
label{display:block;margin:.75rem 0 .25rem}input{box-sizing:border-box;width:100%;padding:.55rem;border:1px solid #3a4554;border-radius:4px;background:#11161c;color:inherit;font:inherit}
button{margin-top:1.25rem;width:100%;padding:.6rem;border:0;border-radius:4px;background:#3d7eff;color:#fff;font:inherit;cursor:pointer}button:disabled{opacity:.6}
#error{color:#ff8c8c;margin:.75rem 0 0}.hint{font-size:.85rem;margin-top:1.25rem}`;

/** Posts to the REST login (one way to log in), then goes where the page says the user was headed. */
function script(loginUrl: string): string {
  return `"use strict";
document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const error = document.getElementById("error");
  const button = form.querySelector("button");
  error.hidden = true;
  button.disabled = true;
  try {
    const res = await fetch(${JSON.stringify(loginUrl)}, {
      method: "POST",
      headers: { "content-type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ login: form.login.value, password: form.password.value }),
    });
    if (res.ok) {
      location.assign(form.dataset.next);
      return;
    }
    const body = await res.json().catch(() => ({}));
    error.textContent = res.status === 400 ? "Enter your login and password." : body.message || "Sign-in failed (" + res.status + ").";
  } catch {
    error.textContent = "The server could not be reached.";
  }
  error.hidden = false;
  button.disabled = false;
});
`;
}

/** True for a browser navigating to a page (not a script, not the page's own API calls). */
export function isPageNavigation(req: Request): boolean {
  return req.method === "GET" && req.accepts(["json", "html"]) === "html";
}

/** The sign-in page for browser users: a session cookie instead of an application password in a Basic prompt. */
export function loginPageRoutes(ctx: Pick<AppContext, "config">, fallback: string): Router {
  const router = express.Router();
  const send = (res: express.Response, type: string, body: string) => {
    res.set({ "Content-Security-Policy": CSP, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }).type(type).send(body);
  };
  const js = script(`${ctx.config.API_ROOT}/auth/login`);
  router.get(LOGIN_PATH, (req, res) => send(res, "html", page(sameOriginPath(req.query.next) ?? fallback)));
  router.get(`${LOGIN_PATH}/login.css`, (_req, res) => send(res, "css", CSS));
  router.get(`${LOGIN_PATH}/login.js`, (_req, res) => send(res, "js", js));
  return router;
}
