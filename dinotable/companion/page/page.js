// The phone page of one seat at the table: what the seat sees and the moves it may make,
// kept up to date by the table's server-sent events. Plain script, no build step. All text
// from the table (names are typed by people) is set as text, never as HTML.
"use strict";

(function () {
  const FOLD = 4; // a group of more moves than this folds under one button
  const SETTLE_WAIT = 4000; // ms: a taken move whose new view has not come is fetched

  const match = /^\/seat\/([^/]+)/.exec(location.pathname);
  const base = match ? "/seat/" + match[1] + "/" : "";

  let view = null; // the newest payload shown
  let busy = null; // a move in flight: {moves: the move count when sent, answered, label}
  let refusal = ""; // why the last move was not taken, shown until the next move
  let refusalNote = ""; // the game had moved on since the page last heard of it
  let openGroup = null; // the folded group of moves now opened
  let marking = null; // choosing items: {label, id, ticked: Set of item ids}
  let closed = false; // the table has closed: nothing more will come
  let gone = false; // the address is not a seat of this table's game
  let stream = null;
  let retry = null;
  const openCards = new Set(); // cards opened to read all their text
  const openZones = new Set(); // zones opened to show every card
  const ZONE_CARDS = 6; // a zone of cards with words shows this many until opened
  const ZONE_CHIPS = 30; // and a zone of tokens or tiles (small chips) this many

  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Black or white, whichever reads better on a player's colour.
  function textOn(hex) {
    const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    if (!m) return "#000";
    const lin = m.slice(1).map((h) => {
      const c = parseInt(h, 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    const lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
    return (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? "#000" : "#fff";
  }

  function paint(node, colour) {
    node.style.backgroundColor = colour;
    node.style.color = textOn(colour);
  }

  function nameOf(seat) {
    if (!view || seat === null || seat === undefined) return "";
    const p = view.players.find((x) => x.seat === seat);
    return p ? p.name : "";
  }

  function listNames(names) {
    if (names.length <= 1) return names.join("");
    return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  // --- the connection ------------------------------------------------------------------

  function setStatus(words, kind) {
    const node = $("status");
    node.textContent = words;
    node.hidden = !words;
    node.className = "status" + (kind ? " " + kind : "");
  }

  function connect() {
    if (closed || gone || !base) return;
    if (stream) stream.close();
    clearTimeout(retry);
    stream = new EventSource(base + "events");
    stream.addEventListener("view", (e) => {
      setStatus("");
      let data = null;
      try {
        data = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      show(data);
    });
    stream.addEventListener("closed", () => {
      tableClosed();
    });
    stream.onopen = () => {
      if (!closed) setStatus("");
    };
    stream.onerror = () => {
      if (closed || gone) return;
      setStatus("Reconnecting…", "warn");
      // EventSource tries again by itself unless the answer was an error page: then
      // the page tries again itself (and learns if the address is no longer a seat).
      if (stream && stream.readyState === EventSource.CLOSED) {
        retry = setTimeout(() => {
          refresh();
          connect();
        }, 3000);
      }
    };
  }

  function tableClosed() {
    closed = true;
    if (stream) stream.close();
    clearTimeout(retry);
    busy = null;
    setStatus("The table has closed. Thank you for playing!", "closed");
    render();
  }

  function refresh() {
    if (closed || gone || !base) return Promise.resolve();
    return fetch(base + "state", { cache: "no-store" })
      .then((res) => {
        if (res.status === 404) {
          gone = true;
          if (stream) stream.close();
          setStatus("This address is not a seat at the table any more. " +
            "Scan your seat's code on the table again.", "closed");
          render();
          return null;
        }
        return res.ok ? res.json() : null;
      })
      .then((data) => {
        if (data) show(data);
      })
      .catch(() => {
        if (!closed) setStatus("Reconnecting…", "warn");
      });
  }

  // --- moves ---------------------------------------------------------------------------

  function send(path, body, label) {
    if (busy || closed || gone || !view) return;
    busy = { moves: view.move_count, answered: false, label: label || "" };
    refusal = "";
    refusalNote = "";
    render();
    fetch(base + path, {
      method: "POST",
      cache: "no-store",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    })
      .then((res) => res.json().catch(() => ({ ok: false, reason: "" })).then((answer) => {
        if (answer && answer.ok) {
          moveTaken();
        } else {
          refused((answer && answer.reason) || "The table did not take that move.");
        }
      }))
      .catch(() => {
        refused("Could not reach the table. Check the Wi-Fi, then try again.");
      });
  }

  // The table took the move: the buttons come back with the view that shows it.
  function moveTaken() {
    if (!busy) return;
    busy.answered = true;
    if (view && view.move_count !== busy.moves) {
      settle();
      return;
    }
    const waiting = busy;
    setTimeout(() => {
      if (busy !== waiting) return;
      refresh().then(() => {
        if (busy === waiting) settle();
      });
    }, SETTLE_WAIT);
  }

  function settle() {
    busy = null;
    openGroup = null;
    marking = null;
    render();
  }

  function refused(reason) {
    busy = null;
    refusal = reason;
    refusalNote = "";
    render();
    // The page may have been showing an old view (a phone that slept): fetch the newest.
    refresh();
    const box = $("refusal");
    if (box.scrollIntoView) box.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  // --- what the table sent -------------------------------------------------------------

  function show(data) {
    if (!data || typeof data !== "object") return;
    // An older view (a fetch that crossed a newer event) is dropped.
    if (view && typeof data.version === "number" && data.version < view.version) return;
    const wasMine = view && view.turn && view.turn.yours;
    const before = view ? view.move_count : null;
    view = data;
    if (busy && (data.move_count !== busy.moves || data.game_over)) {
      // The move sent was taken (or the game moved on): a new choice begins.
      busy = null;
      refusal = "";
      openGroup = null;
      marking = null;
    } else if (before !== null && before !== data.move_count) {
      openGroup = null;
      marking = null;
      if (refusal) refusalNote = "The game had moved on: the buttons below are up to date now.";
    }
    const nowMine = data.turn && data.turn.yours && !data.game_over && wasMine === false;
    // A buzz, once the person has touched the page (browsers refuse one before that).
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (nowMine && navigator.vibrate && touched) {
      try {
        navigator.vibrate(150);
      } catch (err) {
        // a phone that cannot buzz simply does not
      }
    }
    render();
    // Someone reading their cards further down sees at once that it is their turn.
    if (nowMine && window.scrollY > 0) window.scrollTo({ top: 0, behavior: "smooth" });
  }

  function render() {
    const body = document.body;
    body.dataset.busy = busy ? "true" : "false";
    body.dataset.closed = closed || gone ? "true" : "false";
    if (!view) return;
    body.dataset.version = String(view.version);
    body.dataset.moves = String(view.move_count);
    body.dataset.yours = view.turn.yours ? "true" : "false";
    body.dataset.gameOver = view.game_over ? "true" : "false";
    $("loading").hidden = true;

    const me = $("me-name");
    me.textContent = view.name;
    paint(me, view.colour);
    $("game-title").textContent = view.game.title + (view.round ? " · round " + view.round : "");

    renderTurn();
    renderRefusal();
    const prompt = $("prompt");
    prompt.textContent = view.prompt || "";
    prompt.hidden = !view.prompt || closed || view.game_over;
    renderMoves();
    renderLines();
    renderZones();
    renderPlayers();
    document.title = (view.game_over ? "Game over" : view.turn.words) + " · dinotable";
  }

  function renderTurn() {
    const box = $("turn-box");
    box.hidden = !!view.game_over;
    const yours = view.turn.yours && !view.game_over && !closed;
    box.className = "turn-box" + (yours ? " yours" : "") + (view.game_over ? " over" : "");
    $("turn").textContent = view.turn.words;
    const seat = view.turn.seat;
    box.style.borderLeftColor = seat === null || yours ? "" :
      (view.players.find((p) => p.seat === seat) || {}).colour || "";
    let hint = "";
    if (yours) hint = busy ? "Sending your move…" : "Choose a move below.";
    $("turn-hint").textContent = hint;
    $("turn-hint").hidden = !hint;

    const over = $("game-over");
    over.hidden = !view.game_over;
    if (view.game_over) {
      const winners = view.winners || [];
      let words = "";
      if (winners.length === 1 && winners[0] === view.name) words = "You win!";
      else if (winners.length === 1) words = winners[0] + " wins!";
      else if (winners.length > 1) words = listNames(winners) + " win!";
      $("winners").textContent = words;
      $("winners").hidden = !words;
    }

    const waiting = $("waiting");
    const others = !view.turn.yours && !view.game_over && !closed && !gone && seat !== null;
    waiting.hidden = !others;
    if (others) {
      const p = view.players.find((x) => x.seat === seat);
      waiting.textContent = "Waiting for " + nameOf(seat) + (p && p.bot ? " (a bot)" : "") + "…";
    }
  }

  function renderRefusal() {
    const box = $("refusal");
    box.hidden = !refusal;
    $("refusal-text").textContent = refusal;
    $("refusal-note").textContent = refusalNote;
    $("refusal-note").hidden = !refusalNote;
  }

  // One button for each move; a group of many folds under one button that opens it.
  function renderMoves() {
    const box = $("moves-box");
    const list = $("moves");
    list.replaceChildren();
    const live = view.turn.yours && !view.game_over && !closed && !gone;
    box.hidden = !live;
    if (!live) return;
    const moves = view.moves || [];

    if (marking) {
      const move = moves.find((m) => m.mark && m.label === marking.label);
      if (move) {
        list.append(markPanel(move));
        renderUndo(true);
        return;
      }
      marking = null;
    }

    const counts = new Map();
    for (const m of moves) if (m.enabled) counts.set(m.group, (counts.get(m.group) || 0) + 1);
    // Every move of one kind (where to capture): no need to fold them.
    const sole = counts.size === 1;
    const drawn = new Set();
    for (const m of moves) {
      const folded = m.enabled && counts.get(m.group) > FOLD;
      if (!folded) {
        list.append(moveButton(m, m.label));
        continue;
      }
      if (drawn.has(m.group)) continue;
      drawn.add(m.group);
      const members = moves.filter((x) => x.enabled && x.group === m.group);
      list.append(sole ? groupList(m.group, members) : groupBlock(m.group, members));
    }
    if (!moves.length) list.append(el("p", "note", "Nothing to do right now."));
    renderUndo(false);
  }

  // Inside its group a move drops the group's name, and each of its choices takes a line
  // ("Triceratops" over "S4"); two buttons a row while every word fits.
  function shortMoves(group, members) {
    const prefix = group + ": ";
    const lines = members.map((m) =>
      (m.label.startsWith(prefix) ? m.label.slice(prefix.length) : m.label).split(", "));
    const longest = Math.max(0, ...lines.flat().map((w) => w.length));
    const inner = el("div", "group-moves" + (longest > 10 ? " one" : ""));
    members.forEach((m, i) => inner.append(moveButton(m, lines[i])));
    return inner;
  }

  // The only kind of move there is: its name over its choices, always open.
  function groupList(group, members) {
    const wrap = el("div", "group open sole");
    wrap.append(el("p", "group-title", group));
    wrap.append(shortMoves(group, members));
    return wrap;
  }

  function groupBlock(group, members) {
    const open = openGroup === group;
    const wrap = el("div", "group" + (open ? " open" : ""));
    const head = el("button", "group-button");
    head.type = "button";
    head.dataset.testid = "group";
    head.dataset.group = group;
    head.setAttribute("aria-expanded", open ? "true" : "false");
    head.append(el("span", "group-name", group),
      el("span", "group-count", members.length + " choices"),
      el("span", "group-arrow", open ? "▲" : "▼"));
    head.disabled = !!busy;
    head.addEventListener("click", () => {
      openGroup = open ? null : group;
      render();
      if (!open) {
        const node = document.querySelector('[data-testid="group"][aria-expanded="true"]');
        if (node && node.scrollIntoView) node.scrollIntoView({ block: "start" });
      }
    });
    wrap.append(head);
    if (open) wrap.append(shortMoves(group, members));
    return wrap;
  }

  function moveButton(m, text) {
    if (!m.enabled) {
      const row = el("div", "move-off");
      const b = el("button", "move");
      words(b, text);
      b.type = "button";
      b.disabled = true;
      b.dataset.testid = "move";
      b.dataset.label = m.label;
      b.dataset.enabled = "false";
      row.append(b, el("p", "move-reason", m.reason || "Not now."));
      return row;
    }
    const b = el("button", "move" + (m.mark ? " mark-move" : ""));
    words(b, text);
    b.type = "button";
    b.dataset.testid = "move";
    b.dataset.label = m.label;
    b.dataset.enabled = "true";
    if (m.act) b.dataset.act = JSON.stringify(m.act);
    if (m.mark) b.dataset.mark = JSON.stringify({ action: m.mark.id, args: m.mark.bound });
    b.disabled = !!busy;
    if (busy && busy.label === m.label) b.classList.add("sending");
    b.addEventListener("click", () => {
      if (busy) return;
      if (m.mark) {
        marking = { label: m.label, id: m.mark.id, ticked: new Set() };
        refusal = "";
        render();
        return;
      }
      send("act", m.act, m.label);
    });
    return b;
  }

  // A button's words: one line, or the first big and each other choice on a line below.
  function words(button, text) {
    if (!Array.isArray(text)) {
      button.textContent = text;
      return;
    }
    text.forEach((line, i) => button.append(el("span", i ? "move-line" : "move-main", line)));
  }

  // Choosing items (dice to roll again): tick them, then confirm.
  function markPanel(move) {
    const mark = move.mark;
    const ids = new Set(mark.items.map((i) => String(i.id)));
    for (const t of Array.from(marking.ticked)) if (!ids.has(String(t))) marking.ticked.delete(t);
    const panel = el("div", "mark-panel");
    panel.dataset.testid = "mark";
    panel.append(el("p", "mark-title", move.label),
      el("p", "mark-help", "Tick the ones you want, then press the green button."));
    const grid = el("div", "mark-items");
    for (const item of mark.items) {
      const ticked = marking.ticked.has(item.id);
      const b = el("button", "mark-item" + (ticked ? " ticked" : ""));
      b.type = "button";
      b.dataset.testid = "mark-item";
      b.dataset.id = String(item.id);
      b.dataset.label = item.label;
      b.setAttribute("aria-pressed", ticked ? "true" : "false");
      const words = el("span", "mark-words");
      words.append(el("span", "mark-label", item.label));
      if (item.face) words.append(el("span", "mark-face", item.face));
      b.append(el("span", "tick", ticked ? "✓" : ""), words);
      b.disabled = !!busy;
      b.addEventListener("click", () => {
        if (marking.ticked.has(item.id)) marking.ticked.delete(item.id);
        else marking.ticked.add(item.id);
        render();
      });
      grid.append(b);
    }
    panel.append(grid);
    const n = marking.ticked.size;
    const confirm = el("button", "move mark-confirm",
      move.label.split(":")[0] + " (" + n + " ticked)");
    confirm.type = "button";
    confirm.dataset.testid = "mark-confirm";
    confirm.disabled = !!busy;
    confirm.addEventListener("click", () => {
      const args = Object.assign({}, mark.bound);
      // The items in the order the table listed them.
      args[mark.arg] = mark.items.map((i) => i.id).filter((id) => marking.ticked.has(id));
      send("act", { action: mark.id, args: args }, move.label);
    });
    const cancel = el("button", "mark-cancel", "Back to all moves");
    cancel.type = "button";
    cancel.dataset.testid = "mark-cancel";
    cancel.disabled = !!busy;
    cancel.addEventListener("click", () => {
      marking = null;
      render();
    });
    panel.append(confirm, cancel);
    return panel;
  }

  function renderUndo(hide) {
    const undo = view.undo || { enabled: false, reason: "" };
    $("undo-row").hidden = hide;
    const b = $("undo");
    b.disabled = !undo.enabled || !!busy;
    b.dataset.enabled = undo.enabled ? "true" : "false";
    // The reason comes as a sentence, with its full stop.
    $("undo-reason").textContent = undo.enabled ? "" : undo.reason || "";
    $("undo-reason").hidden = undo.enabled || !undo.reason;
  }

  // --- what happened, the cards, the scores --------------------------------------------

  function renderLines() {
    const box = $("lines-box");
    const list = $("lines");
    list.replaceChildren();
    const lines = (view.lines || []).slice().reverse();
    box.hidden = !lines.length;
    lines.forEach((line, i) => {
      const turn = /^-+\s*(.*?)\s*-+$/.exec(line);
      const item = el("li", (i === 0 ? "newest " : "") + (turn ? "turn-line" : "line"),
        turn ? turn[1] : line);
      list.append(item);
    });
  }

  // A seat's own board (a ranch of spaces) shows as one row, each card naming its space.
  function zoneRows() {
    const rows = [];
    const boards = new Map();
    for (const z of view.zones || []) {
      if (!z.board) {
        rows.push({ id: z.id, label: z.label, private: z.private, cards: z.cards,
          size: z.size });
        continue;
      }
      let row = boards.get(z.board);
      if (!row) {
        row = { id: z.board, label: z.board_label, private: z.private, cards: [], size: 0,
          board: true };
        boards.set(z.board, row);
        rows.push(row);
      }
      row.size += z.size;
      for (const c of z.cards) row.cards.push(Object.assign({ space: z.space }, c));
    }
    return rows;
  }

  function renderZones() {
    const box = $("zones");
    box.replaceChildren();
    const rows = zoneRows();
    $("things").hidden = !rows.length;
    for (const z of rows) {
      const sec = el("section", "zone");
      sec.dataset.testid = "zone";
      sec.dataset.zone = z.id;
      const head = el("h3", "zone-label", z.label);
      if (z.size) head.append(el("span", "zone-count", " (" + z.size + ")"));
      sec.append(head);
      if (z.private) sec.append(el("p", "zone-note", "Only you can see these."));
      if (!z.size) {
        sec.append(el("p", "empty", z.board ? "Nothing on it yet." : "None yet."));
        box.append(sec);
        continue;
      }
      const shown = stacks(z.cards);
      // A zone seen only by its size: that many backs.
      for (let i = z.cards.length; i < z.size && i < 60; i++) shown.push({ card: { hidden: true } });
      const plain = shown.every((s) => !s.card.text);
      const open = openZones.has(z.id);
      const limit = plain ? ZONE_CHIPS : ZONE_CARDS;
      const cards = el("div", "cards" + (plain ? " dense" : ""));
      shown.forEach((s, i) => {
        const node = card(s.card, s.count);
        if (i >= limit && !open) node.classList.add("extra");
        cards.append(node);
      });
      sec.append(cards);
      if (shown.length > limit) {
        const more = el("button", "zone-more",
          open ? "Show fewer ▲" : "Show all " + shown.length + " ▼");
        more.type = "button";
        more.dataset.testid = "zone-more";
        more.addEventListener("click", () => {
          if (openZones.has(z.id)) openZones.delete(z.id);
          else openZones.add(z.id);
          render();
        });
        sec.append(more);
      }
      box.append(sec);
    }
    // Only a card whose words do not fit offers to show them all.
    for (const node of box.querySelectorAll(".card.readable:not(.open)")) {
      const text = node.querySelector(".card-text");
      if (text && text.scrollHeight > text.clientHeight + 1) expandable(node, false);
    }
  }

  // Tokens and tiles alike (three Fish) lie in one stack with a count.
  function stacks(cards) {
    const out = [];
    const seen = new Map();
    for (const c of cards) {
      const key = !c.hidden && !c.text && !c.space ? c.label + "\n" + (c.face || "") : null;
      if (key !== null && seen.has(key)) {
        seen.get(key).count += 1;
        continue;
      }
      const stack = { card: c, count: 1 };
      if (key !== null) seen.set(key, stack);
      out.push(stack);
    }
    return out;
  }

  function card(c, count) {
    if (c.hidden) {
      const back = el("div", "card back");
      back.dataset.testid = "card";
      back.dataset.hidden = "true";
      back.append(el("span", "back-mark", "?"), el("span", "back-words", "Face down"));
      return back;
    }
    const key = c.id === null || c.id === undefined ? "" : String(c.id);
    const node = el("div", "card" + (c.text ? " readable" : " plain"));
    node.dataset.testid = "card";
    node.dataset.label = c.label;
    node.dataset.kind = c.kind || "";
    node.dataset.key = key;
    if (count > 1) node.dataset.count = String(count);
    if (c.space) node.append(el("span", "card-space", c.space));
    const label = el("span", "card-label", c.label);
    if (count > 1) label.append(el("span", "card-count", " ×" + count));
    node.append(label);
    if (c.face) node.append(el("span", "card-face", c.face));
    if (c.text) node.append(el("span", "card-text", c.text));
    if (c.text && openCards.has(key)) expandable(node, true);
    return node;
  }

  // A card that opens to show all its words, and closes again.
  function expandable(node, open) {
    const key = node.dataset.key;
    node.classList.add("long");
    node.classList.toggle("open", open);
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-expanded", open ? "true" : "false");
    node.append(el("span", "card-more", open ? "Show less ▲" : "Read all ▼"));
    const toggle = () => {
      if (openCards.has(key)) openCards.delete(key);
      else openCards.add(key);
      render();
    };
    node.addEventListener("click", toggle);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        toggle();
      }
    });
  }

  function renderPlayers() {
    const list = $("players");
    list.replaceChildren();
    $("scores").hidden = !view.players.length;
    const deciding = view.game_over ? null : view.turn.seat;
    const winners = new Set(view.game_over ? view.winners || [] : []);
    for (const p of view.players) {
      const li = el("li", "player" + (p.seat === deciding ? " deciding" : "") +
        (p.seat === view.seat ? " me" : "") + (winners.has(p.name) ? " winner" : ""));
      li.dataset.testid = "player";
      li.dataset.seat = String(p.seat);
      const dot = el("span", "dot");
      dot.style.backgroundColor = p.colour;
      const who = el("span", "who");
      who.append(el("span", "player-name", p.name));
      if (p.seat === view.seat) who.append(el("span", "tag", "you"));
      if (p.bot) who.append(el("span", "tag", "bot"));
      if (p.phone) {
        const phone = el("span", "phone-mark");
        phone.title = "plays on a phone";
        phone.setAttribute("aria-label", "plays on a phone");
        who.append(phone);
      }
      if (p.seat === deciding) who.append(el("span", "now", "playing now"));
      if (winners.has(p.name)) who.append(el("span", "now", "★ winner"));
      const score = el("span", "score", p.score === null || p.score === undefined ? "?" : p.score);
      score.dataset.testid = "score";
      li.append(dot, who, score);
      list.append(li);
    }
  }

  // --- start -----------------------------------------------------------------------------

  $("refusal-ok").addEventListener("click", () => {
    refusal = "";
    refusalNote = "";
    render();
  });
  $("undo").addEventListener("click", () => send("undo", {}));
  // Turned sideways, a card's words may fit where they did not. Only a change of width
  // counts: a phone's toolbar folding away as you scroll changes the height alone, and
  // drawing the buttons anew under a finger would lose its tap.
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === width) return;
    width = window.innerWidth;
    render();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    // A phone that slept shows the newest at once, whatever the stream is doing.
    refresh();
    if (!stream || stream.readyState === EventSource.CLOSED) connect();
  });
  window.addEventListener("online", () => {
    refresh();
    connect();
  });

  if (!base) {
    $("loading").textContent = "This is not a seat's address. Scan your seat's code on the table.";
    return;
  }
  connect();
  refresh();
})();
