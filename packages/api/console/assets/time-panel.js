/*
 * A ticket's time panel (spec 2, 4.5), one script for both places it shows:
 * the console's ticket page, and osTicket's reply and note forms, where the
 * platform bridge plugin serves this same file from the platform
 * (`/scp/ajax.php/platform-bridge/time-panel.js`). Either way every call goes
 * to the staff time-tracking AJAX, `<ajax root>/timetracking/*`: the
 * platform's own on the console, osTicket's on a ticket, which the plugin
 * forwards for the agent. No imports: osTicket loads it as a classic script.
 */
(() => {
  "use strict";

  /** Calls `<root><path>`; answers `data`, or throws an Error with the server's message. */
  function client(root, headers, unreachable) {
    return async (method, path, body) => {
      let res;
      try {
        res = await fetch(root + path, {
          method,
          credentials: "same-origin",
          headers: { ...headers, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch {
        throw new Error(unreachable);
      }
      const answer = await res.json().catch(() => null);
      if (answer?.success === true) return answer.data;
      const message = typeof answer?.data === "string" ? answer.data : answer?.message;
      throw new Error(message || `The request failed (${res.status}).`);
    };
  }

  /** The staff time-tracking AJAX, for one ticket's project. */
  function timeTracking(call, projectId) {
    return {
      status: () => call("GET", "timetracking/status"),
      /** The staff member's timer running on the project, or null. */
      running: async () => {
        const timer = await call("GET", `timetracking/timer/${projectId}`);
        return timer.running ? timer : null;
      },
      tasks: () => call("GET", `timetracking/tasks/${projectId}`),
      start: (body) => call("POST", "timetracking/timer/start", body),
      stop: (entryId) => call("POST", `timetracking/timer/${entryId}/stop`),
      submit: (body) => call("POST", "timetracking/submit", body),
      optimise: (text) => call("POST", "timetracking/optimize-note", { text }),
      connectUrl: () => call("GET", "timetracking/connect-url"),
      disconnect: () => call("POST", "timetracking/disconnect"),
    };
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  }

  /**
   * The console's ticket page (spec 2, 4.5 rule 1): its #time-panel section is
   * rendered by the page; here connect to Harvest, a timer with a running
   * clock, manual entries and the note optimiser.
   */
  function consolePanel(panel) {
    const ticketId = Number(panel.dataset.ticketId);
    const nonce = document.querySelector('meta[name="mw-nonce"]')?.content ?? "";
    const time = timeTracking(client("/scp/ajax.php/", { "x-nonce": nonce }, "The server could not be reached."), Number(panel.dataset.projectId));
    const $ = (id) => document.getElementById(id);
    const status = $("time-status");
    const message = $("time-message");
    const clock = $("timer-clock");
    const notes = $("manual-notes");

    let running = null; // { entry_id, seconds, since }
    let tick = null;
    let aiNote = false;

    const say = (text) => {
      status.textContent = text;
    };
    const fail = (error) => {
      message.textContent = error.message;
      message.hidden = false;
    };

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
      message.hidden = true;
      button.disabled = true;
      try {
        await work();
      } catch (error) {
        fail(error);
      } finally {
        button.disabled = false;
      }
    }

    // A broken connection (Harvest refused to renew it) says "reconnect" and why.
    function showConnected(state) {
      $("time-controls").hidden = !state.connected;
      $("time-connect").hidden = state.connected;
      $("time-connect-button").textContent = state.reconnect ? "Reconnect to Harvest" : "Connect to Harvest";
      if (state.connected) say(`Connected to Harvest as ${state.user.name}.`);
      else if (state.reconnect) say(`Your Harvest connection stopped working: reconnect to track time on this ticket. (${state.reason})`);
      else say("Connect your Harvest account to track time on this ticket.");
    }

    async function load() {
      const state = await time.status();
      showConnected(state);
      if (state.connected) setRunning(await time.running());
      return state.connected;
    }

    // The provider's page opens in its own window; this one waits (bounded) for the connection to appear.
    $("time-connect-button").addEventListener("click", (event) =>
      busy(event.currentTarget, async () => {
        const { url } = await time.connectUrl();
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
        const entry = await time.start({ ticket_id: ticketId, notes: notes.value.trim() || undefined });
        setRunning(entry);
        say(entry.started ? "Timer started." : "Your timer was already running.");
      }),
    );

    // Stopping submits the timer's entry with the note, as a reply with time does.
    $("timer-stop").addEventListener("click", (event) =>
      busy(event.currentTarget, async () => {
        const entry = await time.submit({ ticket_id: ticketId, entry_id: running.entry_id, notes: notes.value.trim(), ai_optimized: aiNote });
        setRunning(null);
        say(`Timer stopped: ${entry.hours} h logged.`);
      }),
    );

    $("manual-entry").addEventListener("submit", (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      busy(form.querySelector("button[type=submit]"), async () => {
        const entry = await time.submit({ ticket_id: ticketId, hours: Number(form.hours.value), notes: notes.value.trim(), ai_optimized: aiNote });
        form.hours.value = "";
        say(`${entry.hours} h logged.`);
      });
    });

    $("optimise-note").addEventListener("click", (event) =>
      busy(event.currentTarget, async () => {
        if (!notes.value.trim()) throw new Error("Write a note first.");
        const { note } = await time.optimise(notes.value);
        notes.value = note;
        aiNote = true;
      }),
    );
    notes.addEventListener("input", () => {
      aiNote = false;
    });

    $("time-disconnect").addEventListener("click", (event) =>
      busy(event.currentTarget, async () => {
        await time.disconnect();
        setRunning(null);
        showConnected({ connected: false });
      }),
    );

    load().catch(fail);
  }

  /** osTicket's reply and note forms when Harvest refused to renew the agent's connection: why, and the link to reconnect. */
  function reconnectNotice(time) {
    for (const name of ["reply", "note"]) {
      const form = document.querySelector(`form[name="${name}"]`);
      if (!form) continue;
      const box = el("div", { class: "platform-time-reconnect", role: "alert", style: "margin:8px 0;padding:6px 10px;border:1px solid #dcb" }, "Your Harvest connection stopped working: reconnect to track time. ");
      const link = el("a", { href: "#" }, "Reconnect to Harvest");
      link.addEventListener("click", (event) => {
        event.preventDefault();
        time.connectUrl().then(
          ({ url }) => window.open(url, "harvest-connect"),
          (error) => {
            box.textContent = error.message;
          },
        );
      });
      box.appendChild(link);
      const anchor = form.querySelector("textarea");
      (anchor ? anchor.closest("td") || form : form).appendChild(box);
    }
  }

  /**
   * osTicket's ticket page: the plugin adds this script (with the ticket on
   * its data attributes) only to tickets linked to a time project; the panel
   * shows in the reply and note forms only when the agent is connected to
   * the provider (rule 1): a task, a timer, or hours by hand, and notes.
   */
  async function formPanels(script) {
    const ticketId = Number(script.dataset.ticketId);
    const locked = script.dataset.locked === "1";
    const root = script.src.replace(/platform-bridge\/time-panel\.js.*$/, "");
    const time = timeTracking(client(root, { "X-CSRFToken": script.dataset.csrf, "X-Requested-With": "XMLHttpRequest" }, "The platform could not be reached."), Number(script.dataset.projectId));
    let running = null;

    function panel(form) {
      const box = el("fieldset", { class: "platform-time-panel", style: "margin:8px 0;padding:6px 10px;border:1px solid #ccd" });
      box.appendChild(el("legend", {}, "Time"));
      const message = el("div", { class: "platform-time-message", role: "status", style: "margin:4px 0" });
      if (locked) message.textContent = "This ticket is over budget and locked: only its project manager can log more time or unlock it.";
      const task = el("select", { name: "platform_time_task", "aria-label": "Task" });
      const hours = el("input", { type: "number", name: "platform_time_hours", min: "0", max: "24", step: "0.25", placeholder: "Hours", style: "width:6em", "aria-label": "Hours" });
      const notes = el("input", { type: "text", name: "platform_time_notes", maxlength: "2000", placeholder: "What was done", style: "width:20em", "aria-label": "Notes" });
      const timer = el("button", { type: "button", class: "button" }, running ? "Stop timer" : "Start timer");
      for (const node of [task, hours, notes, timer]) box.append(node, " ");
      box.appendChild(message);

      time
        .tasks()
        .then((answer) => {
          for (const t of answer.tasks) {
            const option = el("option", { value: String(t.id) }, t.name);
            if (t.id === answer.default_task_id) option.selected = true;
            task.appendChild(option);
          }
        })
        .catch(() => undefined);

      timer.addEventListener("click", () => {
        const request = running ? time.stop(running.entry_id) : time.start({ ticket_id: ticketId, task_id: Number(task.value) || undefined, notes: notes.value || undefined });
        request.then(
          (entry) => {
            running = entry.is_running ? entry : null;
            for (const button of document.querySelectorAll(".platform-time-panel button")) button.textContent = running ? "Stop timer" : "Start timer";
            message.textContent = running ? "Timer running." : `Timer stopped: ${entry.hours} h.`;
          },
          (error) => {
            message.textContent = error.message;
          },
        );
      });

      // Spec 2, 4.5 rule 2: the time goes in before the reply or note; a refusal keeps the form open and says why.
      form.addEventListener(
        "submit",
        (event) => {
          const manual = Number(hours.value);
          if (!running && !(manual > 0)) return;
          event.preventDefault();
          event.stopImmediatePropagation();
          const body = running ? { ticket_id: ticketId, entry_id: running.entry_id, notes: notes.value } : { ticket_id: ticketId, hours: manual, task_id: Number(task.value) || undefined, notes: notes.value };
          time.submit(body).then(
            () => {
              running = null;
              hours.value = "";
              HTMLFormElement.prototype.submit.call(form);
            },
            (error) => {
              message.textContent = error.message;
            },
          );
        },
        true,
      );
      const anchor = form.querySelector("textarea");
      (anchor ? anchor.closest("td") || form : form).appendChild(box);
    }

    const status = await time.status().catch(() => null);
    if (status?.reconnect) return reconnectNotice(time);
    if (!status?.connected) return;
    running = await time.running().catch(() => null);
    for (const name of ["reply", "note"]) {
      const form = document.querySelector(`form[name="${name}"]`);
      if (form) panel(form);
    }
  }

  // The plugin's <script> carries the ticket; the console loads this as a module (no currentScript) beside its #time-panel.
  const script = document.currentScript;
  if (script?.dataset.ticketId) formPanels(script);
  else {
    const panel = document.getElementById("time-panel");
    if (panel) consolePanel(panel);
  }
})();
