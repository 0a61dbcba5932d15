/*
 * The time panel in an osTicket ticket's reply and note forms (spec 2, 4.5).
 * Added by the platform bridge only on tickets linked to a time project; it
 * shows itself only when the agent is connected to the time-tracking
 * provider (rule 1). Every call goes to this osTicket's own
 * /scp/ajax.php/timetracking/*, which the plugin forwards for the agent.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var ticketId = Number(script.dataset.ticketId);
  var projectId = Number(script.dataset.projectId);
  var locked = script.dataset.locked === "1";
  var csrf = script.dataset.csrf;
  var base = script.src.replace(/platform-bridge\/time-panel\.js.*$/, "timetracking/");
  var running = null;

  function call(method, path, body) {
    var init = { method: method, credentials: "same-origin", headers: { "X-CSRFToken": csrf, "X-Requested-With": "XMLHttpRequest" } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(base + path, init)
      .then(function (res) { return res.json(); })
      .catch(function () { return { success: false, data: "The platform could not be reached." }; });
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text) node.textContent = text;
    return node;
  }

  function panel(form) {
    var box = el("fieldset", { class: "platform-time-panel", style: "margin:8px 0;padding:6px 10px;border:1px solid #ccd" });
    box.appendChild(el("legend", {}, "Time"));
    var message = el("div", { class: "platform-time-message", role: "status", style: "margin:4px 0" });
    if (locked) message.textContent = "This ticket is over budget and locked: only its project manager can log more time or unlock it.";
    var task = el("select", { name: "platform_time_task", "aria-label": "Task" });
    var hours = el("input", { type: "number", name: "platform_time_hours", min: "0", max: "24", step: "0.25", placeholder: "Hours", style: "width:6em", "aria-label": "Hours" });
    var notes = el("input", { type: "text", name: "platform_time_notes", maxlength: "2000", placeholder: "What was done", style: "width:20em", "aria-label": "Notes" });
    var timer = el("button", { type: "button", class: "button" }, running ? "Stop timer" : "Start timer");
    [task, hours, notes, timer].forEach(function (node) { box.appendChild(node); box.appendChild(document.createTextNode(" ")); });
    box.appendChild(message);

    call("GET", "tasks/" + projectId).then(function (answer) {
      if (!answer.success) return;
      answer.data.tasks.forEach(function (t) {
        var option = el("option", { value: String(t.id) }, t.name);
        if (t.id === answer.data.default_task_id) option.selected = true;
        task.appendChild(option);
      });
    });

    timer.addEventListener("click", function () {
      var request = running
        ? call("POST", "timer/" + running.entry_id + "/stop")
        : call("POST", "timer/start", { ticket_id: ticketId, task_id: Number(task.value) || undefined, notes: notes.value || undefined });
      request.then(function (answer) {
        if (!answer.success) {
          message.textContent = answer.data;
          return;
        }
        running = answer.data.is_running ? answer.data : null;
        document.querySelectorAll(".platform-time-panel button").forEach(function (b) { b.textContent = running ? "Stop timer" : "Start timer"; });
        message.textContent = running ? "Timer running." : "Timer stopped: " + answer.data.hours + " h.";
      });
    });

    // Spec 2, 4.5 rule 2: the time goes in before the reply or note; a refusal keeps the form open and says why.
    form.addEventListener("submit", function (event) {
      var manual = Number(hours.value);
      if (!running && !(manual > 0)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      var body = running
        ? { ticket_id: ticketId, entry_id: running.entry_id, notes: notes.value }
        : { ticket_id: ticketId, hours: manual, task_id: Number(task.value) || undefined, notes: notes.value };
      call("POST", "submit", body).then(function (answer) {
        if (!answer.success) {
          message.textContent = answer.data;
          return;
        }
        running = null;
        hours.value = "";
        HTMLFormElement.prototype.submit.call(form);
      });
    }, true);
    var anchor = form.querySelector("textarea");
    (anchor ? anchor.closest("td") || form : form).appendChild(box);
  }

  call("GET", "status").then(function (status) {
    if (!status.success || !status.data.connected) return;
    call("GET", "timer/" + projectId).then(function (timer) {
      if (timer.success && timer.data.running) running = timer.data;
      ["reply", "note"].forEach(function (name) {
        var form = document.querySelector('form[name="' + name + '"]');
        if (form) panel(form);
      });
    });
  });
})();
