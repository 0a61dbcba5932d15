// The ticket page's time panel (spec 2, 4.5 rule 1): connect to Harvest, a timer with a running clock,
// manual entries and the note optimiser, all through the staff time-tracking AJAX.
import { ajax } from "./ajax.js";

const panel = document.getElementById("time-panel");
const ticketId = Number(panel.dataset.ticketId);
const projectId = Number(panel.dataset.projectId);
const $ = (id) => document.getElementById(id);
const status = $("time-status");
const message = $("time-message");
const clock = $("timer-clock");
const notes = $("manual-notes");

let running = null; // { entry_id, seconds, since }
let tick = null;
let aiNote = false;

function say(text) {
  status.textContent = text;
}

function fail(error) {
  message.textContent = error.message;
  message.hidden = false;
}

function clear() {
  message.hidden = true;
}

function format(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

function showClock() {
  clock.textContent = running ? format(running.seconds + (Date.now() - running.since) / 1000) : "0:00:00";
}

function setRunning(entry) {
  running = entry ? { entry_id: entry.entry_id, seconds: (entry.hours ?? 0) * 3600, since: Date.now() } : null;
  clearInterval(tick);
  tick = running ? setInterval(showClock, 1000) : null;
  showClock();
  $("timer-start").hidden = Boolean(running);
  $("timer-stop").hidden = !running;
}

async function busy(button, work) {
  clear();
  button.disabled = true;
  try {
    await work();
  } catch (error) {
    fail(error);
  } finally {
    button.disabled = false;
  }
}

function showConnected(connected, user) {
  $("time-controls").hidden = !connected;
  $("time-connect").hidden = connected;
  say(connected ? `Connected to Harvest as ${user.name}.` : "Connect your Harvest account to track time on this ticket.");
}

async function load() {
  const state = await ajax("GET", "timetracking/status");
  showConnected(state.connected, state.user);
  if (state.connected) {
    const timer = await ajax("GET", `timetracking/timer/${projectId}`);
    setRunning(timer.running ? timer : null);
  }
  return state.connected;
}

// The provider's page opens in its own window; this one waits (bounded) for the connection to appear.
$("time-connect-button").addEventListener("click", (event) =>
  busy(event.currentTarget, async () => {
    const { url } = await ajax("GET", "timetracking/connect-url");
    window.open(url, "harvest-connect");
    say("Waiting for Harvest…");
    for (let i = 0; i < 150; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (await load()) return;
    }
    say("Not connected yet. Press Connect to try again.");
  }),
);

$("timer-start").addEventListener("click", (event) =>
  busy(event.currentTarget, async () => {
    const entry = await ajax("POST", "timetracking/timer/start", { ticket_id: ticketId, notes: notes.value.trim() || undefined });
    setRunning(entry);
    say(entry.started ? "Timer started." : "Your timer was already running.");
  }),
);

// Stopping submits the timer's entry with the note, as a reply with time does.
$("timer-stop").addEventListener("click", (event) =>
  busy(event.currentTarget, async () => {
    const entry = await ajax("POST", "timetracking/submit", { ticket_id: ticketId, entry_id: running.entry_id, notes: notes.value.trim(), ai_optimized: aiNote });
    setRunning(null);
    say(`Timer stopped: ${entry.hours} h logged.`);
  }),
);

$("manual-entry").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  busy(form.querySelector("button[type=submit]"), async () => {
    const entry = await ajax("POST", "timetracking/submit", { ticket_id: ticketId, hours: Number(form.hours.value), notes: notes.value.trim(), ai_optimized: aiNote });
    form.hours.value = "";
    say(`${entry.hours} h logged.`);
  });
});

$("optimise-note").addEventListener("click", (event) =>
  busy(event.currentTarget, async () => {
    if (!notes.value.trim()) throw new Error("Write a note first.");
    const { note } = await ajax("POST", "timetracking/optimize-note", { text: notes.value });
    notes.value = note;
    aiNote = true;
  }),
);
notes.addEventListener("input", () => {
  aiNote = false;
});

$("time-disconnect").addEventListener("click", (event) =>
  busy(event.currentTarget, async () => {
    await ajax("POST", "timetracking/disconnect");
    setRunning(null);
    showConnected(false);
  }),
);

load().catch(fail);
