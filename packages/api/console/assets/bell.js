// The notification bell: the unread count fed by the staff notification stream, and a desktop
// notification (the browser's Notification API) for each new CRITICAL alert.
import { sessionNonce } from "./ajax.js";

const bell = document.getElementById("bell");
const badge = document.getElementById("bell-count");
const ASKED = "mw-console-notify-asked";
const ALERTED = "mw-console-alerted";

let initial = 0;
const unread = new Set();

function show() {
  const count = Math.max(initial, unread.size);
  badge.textContent = String(count);
  badge.hidden = count === 0;
  bell.setAttribute("aria-label", `Notifications, ${count} unread`);
}

// A CRITICAL alert pops up once per browser, not again on every page that opens the stream.
function alertedIds() {
  try {
    return JSON.parse(localStorage.getItem(ALERTED) ?? "[]");
  } catch {
    return [];
  }
}

function desktopAlert(notification) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const alerted = alertedIds();
  if (alerted.includes(notification.id)) return;
  localStorage.setItem(ALERTED, JSON.stringify([...alerted, notification.id].slice(-200)));
  const shown = new Notification(notification.title, { body: notification.body, tag: `mw-${notification.id}` });
  shown.addEventListener("click", () => {
    window.focus();
    location.assign("/console/notifications");
  });
}

// Permission is asked once, on the person's first click or key press (browsers ignore asks without one).
function askOnce() {
  if (!("Notification" in window) || Notification.permission !== "default" || localStorage.getItem(ASKED)) return;
  const ask = () => {
    localStorage.setItem(ASKED, "1");
    Notification.requestPermission().catch(() => undefined);
  };
  document.addEventListener("click", ask, { once: true });
  document.addEventListener("keydown", ask, { once: true });
}

const stream = new EventSource(`/scp/ajax.php/notifications/stream?_wpnonce=${encodeURIComponent(sessionNonce())}`);
stream.addEventListener("unread", (event) => {
  initial = JSON.parse(event.data).unread;
  show();
});
stream.addEventListener("notification", (event) => {
  const notification = JSON.parse(event.data);
  if (!notification.read) unread.add(notification.id);
  show();
  if (notification.kind === "critical") desktopAlert(notification);
});
askOnce();
