/*
 * The platform's staff pages inside osTicket's staff panel (the plugin's
 * PlatformStaffPages): the CRITICAL alert bell on every page, the Assistant
 * and Urgency snapshots pages, and the assistant's panel on a ticket. All
 * calls go to the plugin's routes under /scp/ajax.php (same origin, the
 * agent's osTicket session, osTicket's CSRF token on every call); text from
 * users or the model is only ever set as text, never as HTML.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var SCP = (script && script.getAttribute("data-scp")) || "/scp/";
  var AJAX = SCP + "ajax.php";
  /** How often the bell asks for new alerts. */
  var POLL_MS = 30000;
  /** The newest alert this browser has shown as a desktop notification (every tab of it reads the same). */
  var NOTIFIED_KEY = "platform-bridge.notified-alert";
  var LEVELS = ["LOW", "MEDIUM", "HIGH", "CRITICAL"];

  function csrf() {
    var meta = document.querySelector('meta[name="csrf_token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  /** An element with attributes and children (strings become text nodes: escaped by construction). */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name.slice(0, 2) === "on") node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function request(method, path, body) {
    var headers = { "X-CSRFToken": csrf(), "X-Requested-With": "XMLHttpRequest" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(AJAX + path, { method: method, credentials: "same-origin", headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  /** A staff AJAX call answering `data`; a refusal throws its message (`{success: false, data}`). */
  function call(method, path, body) {
    return request(method, path, body).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (answer) {
        if (!res.ok || !answer || answer.success === false) throw new Error((answer && typeof answer.data === "string" && answer.data) || "The platform answered " + res.status + ".");
        return answer.data;
      });
    });
  }

  function ticketByNumber(number) {
    return SCP + "tickets.php?number=" + encodeURIComponent(number);
  }

  function ticketById(id) {
    return SCP + "tickets.php?id=" + encodeURIComponent(id);
  }

  function when(iso) {
    var date = new Date(iso);
    return isNaN(date.getTime()) ? iso : date.toLocaleString();
  }

  function failure(error) {
    return el("p", { class: "platform-error", role: "alert" }, [error.message || String(error)]);
  }

  // ---- Navigation: the two pages beside osTicket's own tabs ----

  function addNavigation() {
    var nav = document.getElementById("nav");
    if (!nav || nav.querySelector(".platform-nav")) return;
    [["assistant", "Assistant"], ["snapshots", "Urgency"]].forEach(function (page) {
      var href = AJAX + "/platform-bridge/" + page[0];
      var active = location.pathname === href;
      nav.appendChild(el("li", { class: (active ? "active" : "inactive") + " platform-nav" }, [el("a", { href: href, class: "no-pjax" }, [page[1]])]));
    });
  }

  // ---- CRITICAL alerts: the bell, its list, desktop notifications ----

  var bell = null;

  function addBell() {
    var info = document.getElementById("info");
    if (!info || document.getElementById("platform-alerts")) return;
    var count = el("span", { class: "platform-badge", hidden: true }, ["0"]);
    var list = el("div", { class: "platform-alert-list", hidden: true, role: "dialog", "aria-label": "CRITICAL alerts" });
    var button = el("button", { type: "button", id: "platform-alerts", class: "platform-bell", "aria-label": "CRITICAL alerts", title: "CRITICAL alerts", onclick: function () {
      list.hidden = !list.hidden;
      if (!list.hidden) refreshAlerts();
    } }, ["\u{1F514}", count]);
    var wrap = el("span", { class: "platform-bell-wrap" }, [button, list]);
    info.insertBefore(wrap, info.firstChild);
    bell = { count: count, list: list, alerts: [] };
    refreshAlerts();
    setInterval(refreshAlerts, POLL_MS);
  }

  function markRead(ids) {
    return call("POST", "/notifications/read", { ids: ids }).then(refreshAlerts);
  }

  function renderAlerts(unread, alerts) {
    bell.count.textContent = String(unread);
    bell.count.hidden = unread === 0;
    bell.list.textContent = "";
    var actions = [];
    if ("Notification" in window && Notification.permission === "default") {
      actions.push(el("button", { type: "button", class: "platform-link", onclick: function () { Notification.requestPermission().then(refreshAlerts); } }, ["Enable desktop alerts"]));
    }
    if (unread) actions.push(el("button", { type: "button", class: "platform-link platform-mark-all", onclick: function () { markRead("all"); } }, ["Mark all read"]));
    bell.list.appendChild(el("div", { class: "platform-alert-actions" }, actions));
    if (!alerts.length) bell.list.appendChild(el("p", { class: "platform-muted" }, ["No alerts."]));
    var items = el("ul", {}, alerts.map(function (alert) {
      var open = function (event) {
        event.preventDefault();
        var go = function () { if (alert.ticket_id) location.href = ticketById(alert.ticket_id); };
        if (alert.read) go();
        else markRead([alert.id]).then(go, go);
      };
      return el("li", { class: alert.read ? "platform-read" : "platform-unread" }, [
        el("a", { href: alert.ticket_id ? ticketById(alert.ticket_id) : "#", onclick: open }, [alert.title]),
        el("div", { class: "platform-muted" }, [alert.body]),
        el("div", { class: "platform-muted" }, [when(alert.created)]),
      ]);
    }));
    bell.list.appendChild(items);
  }

  /** One desktop notification per CRITICAL alert this browser has not shown yet. */
  function notifyNew(alerts) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    var shown = Number(localStorage.getItem(NOTIFIED_KEY) || 0);
    var fresh = alerts.filter(function (alert) { return alert.kind === "critical" && !alert.read && alert.id > shown; });
    if (!fresh.length) return;
    localStorage.setItem(NOTIFIED_KEY, String(Math.max.apply(null, fresh.map(function (alert) { return alert.id; }))));
    fresh.forEach(function (alert) {
      var notification = new Notification(alert.title, { body: alert.body, tag: "platform-alert-" + alert.id });
      notification.onclick = function () {
        window.focus();
        if (alert.ticket_id) location.href = ticketById(alert.ticket_id);
      };
    });
  }

  function refreshAlerts() {
    if (!bell) return Promise.resolve();
    return call("GET", "/notifications").then(function (data) {
      renderAlerts(data.unread, data.notifications);
      notifyNew(data.notifications);
    }, function (error) {
      bell.list.textContent = "";
      bell.list.appendChild(failure(error));
    });
  }

  // ---- The assistant: page and ticket panel ----

  /** Reads a text/event-stream body, calling `onEvent` with each `data:` JSON as it arrives. */
  function readEvents(res, onEvent) {
    var reader = res.body.getReader();
    var decoder = new TextDecoder();
    var pending = "";
    function pump() {
      return reader.read().then(function (step) {
        pending += decoder.decode(step.value || new Uint8Array(), { stream: !step.done });
        var events = pending.split("\n\n");
        pending = events.pop();
        events.forEach(function (block) {
          block.split("\n").forEach(function (line) {
            if (line.slice(0, 5) === "data:") onEvent(JSON.parse(line.slice(5)));
          });
        });
        if (!step.done) return pump();
      });
    }
    return pump();
  }

  /** An answer's text with its cited tickets ("#004512") as links to osTicket's ticket pages. */
  function answerNodes(text, cited) {
    var nodes = [];
    var pattern = /#(\d{3,})/g;
    var at = 0;
    var match;
    while ((match = pattern.exec(text))) {
      if (cited.indexOf(match[1]) < 0) continue;
      nodes.push(text.slice(at, match.index));
      nodes.push(el("a", { href: ticketByNumber(match[1]), class: "platform-cited" }, [match[0]]));
      at = match.index + match[0].length;
    }
    nodes.push(text.slice(at));
    if (cited.length) {
      nodes.push(el("div", { class: "platform-cited-list" }, ["Cited: "].concat(cited.map(function (number) {
        return el("a", { href: ticketByNumber(number), class: "platform-cited" }, ["#" + number]);
      }))));
    }
    return nodes;
  }

  function message(role, content, cited) {
    return el("div", { class: "platform-message platform-from-" + role }, [
      el("div", { class: "platform-who" }, [role === "user" ? "You" : "Assistant"]),
      el("div", { class: "platform-content" }, role === "assistant" ? answerNodes(content, cited || []) : [content]),
    ]);
  }

  function assistant(root, ticketNumber) {
    var state = { conversation: null, busy: false };
    var list = el("ul", { class: "platform-conversations" });
    var thread = el("div", { class: "platform-thread", "aria-live": "polite" });
    var input = el("textarea", { name: "message", rows: 3, maxlength: 4000, required: true, "aria-label": "Your question", placeholder: ticketNumber ? "Ask about this ticket..." : "Ask the assistant..." });
    var ask = el("button", { type: "submit", class: "button platform-ask" }, ["Ask"]);
    var form = el("form", { class: "platform-ask-form", onsubmit: function (event) {
      event.preventDefault();
      send();
    } }, [input, el("div", {}, [ask])]);
    var aside = el("aside", { class: "platform-aside" }, [
      el("button", { type: "button", class: "platform-link platform-new", onclick: function () {
        state.conversation = null;
        thread.textContent = "";
        input.focus();
      } }, ["New conversation"]),
      list,
    ]);
    root.textContent = "";
    root.appendChild(el("div", { class: "platform-assistant-grid" }, [aside, el("div", { class: "platform-chat" }, [thread, form])]));

    function loadList() {
      return call("GET", "/ai-assistant/conversations").then(function (data) {
        list.textContent = "";
        data.conversations.forEach(function (conversation) {
          list.appendChild(el("li", { class: conversation.id === state.conversation ? "platform-current" : null }, [
            el("a", { href: "#", "data-conversation": conversation.id, onclick: function (event) {
              event.preventDefault();
              open(conversation.id);
            } }, [conversation.title || "Conversation " + conversation.id]),
          ]));
        });
        if (!data.conversations.length) list.appendChild(el("li", { class: "platform-muted" }, ["No conversations yet."]));
      }, function (error) {
        list.textContent = "";
        list.appendChild(el("li", {}, [failure(error)]));
      });
    }

    function open(id) {
      return call("GET", "/ai-assistant/conversations/" + id).then(function (data) {
        state.conversation = data.id;
        thread.textContent = "";
        data.messages.forEach(function (item) { thread.appendChild(message(item.role, item.content, item.cited_tickets)); });
        return loadList();
      }, function (error) { thread.appendChild(failure(error)); });
    }

    function send() {
      var text = input.value.trim();
      if (!text || state.busy) return;
      state.busy = true;
      ask.disabled = true;
      thread.appendChild(message("user", text));
      var content = el("div", { class: "platform-content platform-streaming" });
      thread.appendChild(el("div", { class: "platform-message platform-from-assistant" }, [el("div", { class: "platform-who" }, ["Assistant"]), content]));
      input.value = "";
      var body = { message: text };
      if (ticketNumber) body.ticket_number = ticketNumber;
      if (state.conversation) body.conversation_id = state.conversation;
      var answer = "";
      request("POST", "/ai-assistant/chat", body).then(function (res) {
        var type = res.headers.get("content-type") || "";
        if (!res.ok || type.indexOf("text/event-stream") < 0) {
          return res.json().catch(function () { return null; }).then(function (refusal) {
            throw new Error((refusal && typeof refusal.data === "string" && refusal.data) || "The platform answered " + res.status + ".");
          });
        }
        return readEvents(res, function (event) {
          if (event.type === "token") {
            answer += event.content;
            content.appendChild(document.createTextNode(event.content));
          } else if (event.type === "done") {
            state.conversation = event.conversation_id;
            content.textContent = "";
            answerNodes(answer, event.cited_tickets || []).forEach(function (node) { content.appendChild(typeof node === "string" ? document.createTextNode(node) : node); });
            content.classList.remove("platform-streaming");
            content.classList.add("platform-done");
          } else if (event.type === "error") {
            content.appendChild(failure(new Error(event.message)));
          }
        });
      }).catch(function (error) {
        content.appendChild(failure(error));
      }).then(function () {
        state.busy = false;
        ask.disabled = false;
        content.classList.remove("platform-streaming");
        loadList();
      });
    }

    loadList();
  }

  function ticketPanels() {
    document.querySelectorAll(".platform-ticket-panel:not([data-ready])").forEach(function (panel) {
      panel.setAttribute("data-ready", "1");
      var number = panel.getAttribute("data-ticket-number");
      var body = el("div", { class: "platform-assistant" });
      var details = el("details", { class: "platform-panel" }, [el("summary", {}, ["Ask the assistant about this ticket"]), body]);
      details.addEventListener("toggle", function () {
        if (details.open && !body.firstChild) assistant(body, number);
      });
      panel.appendChild(details);
    });
  }

  // ---- Urgency snapshots: filter by ticket number and level, paginated ----

  function snapshots(root) {
    var params = new URLSearchParams(location.search);
    var number = el("input", { type: "search", name: "ticket_number", maxlength: 32, value: params.get("ticket_number") || "", "aria-label": "Ticket number", placeholder: "Ticket number" });
    var level = el("select", { name: "level", "aria-label": "Level" }, [el("option", { value: "" }, ["Any level"])].concat(LEVELS.map(function (name) {
      return el("option", { value: name, selected: params.get("level") === name }, [name]);
    })));
    var results = el("div", { class: "platform-results", "aria-live": "polite" });
    var form = el("form", { class: "platform-filter", onsubmit: function (event) {
      event.preventDefault();
      load(1);
    } }, [number, level, el("button", { type: "submit", class: "button" }, ["Filter"])]);
    root.textContent = "";
    root.appendChild(form);
    root.appendChild(results);

    function load(page) {
      var query = new URLSearchParams();
      if (number.value.trim()) query.set("ticket_number", number.value.trim());
      if (level.value) query.set("level", level.value);
      if (page > 1) query.set("page", String(page));
      history.replaceState(null, "", location.pathname + (query.toString() ? "?" + query : ""));
      query.set("per_page", "20");
      results.textContent = "";
      results.appendChild(el("p", { class: "platform-muted" }, ["Loading..."]));
      return call("GET", "/urgency/snapshots?" + query).then(function (data) {
        results.textContent = "";
        if (!data.snapshots.length) {
          results.appendChild(el("p", { class: "platform-muted" }, ["No snapshots match."]));
          return;
        }
        results.appendChild(el("table", { class: "list platform-table", width: "100%" }, [
          el("thead", {}, [el("tr", {}, ["Ticket", "Level", "%", "Hours", "Suggested title", "Model", "When"].map(function (name) { return el("th", {}, [name]); }))]),
          el("tbody", {}, data.snapshots.map(function (row) {
            return el("tr", {}, [
              el("td", { "data-label": "Ticket" }, [el("a", { href: ticketById(row.ticket_id) }, ["#" + (row.ticket_number || row.ticket_id)])]),
              el("td", { "data-label": "Level" }, [el("span", { class: "platform-level platform-level-" + row.urgency.toLowerCase() }, [row.urgency])]),
              el("td", { "data-label": "%" }, [String(row.urgency_percentage)]),
              el("td", { "data-label": "Hours" }, [String(row.estimated_hours)]),
              el("td", { "data-label": "Suggested title" }, [row.suggested_title]),
              el("td", { "data-label": "Model" }, [row.model_used]),
              el("td", { "data-label": "When" }, [when(row.created)]),
            ]);
          })),
        ]));
        results.appendChild(el("nav", { class: "platform-pages", "aria-label": "Pages" }, [
          el("button", { type: "button", class: "button", disabled: data.page <= 1, onclick: function () { load(data.page - 1); } }, ["Previous"]),
          el("span", {}, [" Page " + data.page + " of " + Math.max(1, data.total_pages) + " (" + data.total + " snapshots) "]),
          el("button", { type: "button", class: "button", disabled: data.page >= data.total_pages, onclick: function () { load(data.page + 1); } }, ["Next"]),
        ]));
      }, function (error) {
        results.textContent = "";
        results.appendChild(failure(error));
      });
    }

    load(Number(params.get("page")) || 1);
  }

  function start() {
    addNavigation();
    addBell();
    ticketPanels();
    var page = document.querySelector("[data-platform-page]");
    if (page && !page.hasAttribute("data-ready")) {
      page.setAttribute("data-ready", "1");
      if (page.getAttribute("data-platform-page") === "assistant") assistant(page, null);
      else snapshots(page);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // osTicket swaps its content in place (pjax): a ticket opened that way gets its panel too.
  if (window.jQuery) window.jQuery(document).on("pjax:end", start);
})();
