// The Interlock web UI: reads the public API only (same origin), builds the DOM with textContent (never HTML from
// data), and refreshes itself while runs move. Views: the overview (#/), a pipeline day (#/p/<id>) and the metrics
// the functions published, per pipeline (#/metrics).

// Fast while a day can change any moment, slow when every shown day has settled (each refresh costs API reads).
const REFRESH_MOVING_MS = 2000;
const REFRESH_SETTLED_MS = 10000;
const SETTLED = new Set(["COMPLETED", "FAILED", "EXCLUDED", "SKIPPED", "DRY_RUN", "WAITING_FOR_WINDOW", "BEFORE_REGISTRATION", "PAUSED"]);
const SVG = "http://www.w3.org/2000/svg";
const PHASE_LABEL = {EVALUATION: "evaluation wait", TRIGGER: "trigger", JOB_RUN: "job run", MONITORING: "monitoring", RETRY_WAIT: "retry wait"};
const PHASE_CLASS = {EVALUATION: "EVALUATION", TRIGGER: "TRIGGER", JOB_RUN: "JOB_RUN", MONITORING: "MONITORING-bar", RETRY_WAIT: "RETRY_WAIT"};

const view = document.getElementById("view");
const dateInput = document.getElementById("date");
const refreshed = document.getElementById("refreshed");
let timer = null;
let generation = 0;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function stateBadge(state) {
  return el("span", {class: "state " + state, "data-state-badge": state}, state ? state.replaceAll("_", " ") : "?");
}

// A signed span of seconds as "1h05m", "14m", "45s" ("-" when late).
function span(seconds) {
  const s = Math.abs(seconds), sign = seconds < 0 ? "-" : "";
  if (s >= 3600) return sign + Math.floor(s / 3600) + "h" + String(Math.floor((s % 3600) / 60)).padStart(2, "0") + "m";
  return sign + (s >= 60 ? Math.floor(s / 60) + "m" : s + "s");
}

// The SLA flag of a day (ON TRACK, AT RISK, MISSED) with its margin; the title says the deadline and what it delays.
function slaFlag(sla, zone) {
  if (!sla) return el("span", {class: "muted"}, "—");
  const margin = sla.marginSeconds === null || sla.marginSeconds === undefined ? "" : " " + span(sla.marginSeconds);
  const delays = (sla.delays || []).map(d => d.pipelineId + " " + d.date);
  return el("span", {class: "sla " + sla.state, "data-sla": sla.state,
      title: sla.what + " deadline " + dateTime(sla.deadline, zone) + " (" + sla.deadline + ")" + (delays.length ? "; delays " + delays.join(", ") : "")},
    sla.state.replaceAll("_", " ") + margin);
}

// ---- times: every time in the pipeline's (schedule's) zone with its offset, the UTC instant on hover ----
// The same format as the CLI (ReadableTime): "2026-11-19 17:45 -08:00", seconds only when there are some; never
// the browser's own zone. The JSON keeps UTC instants; `zone` is the status's (schedule window's) zone name.
const ZONE_FORMATS = new Map();

function zoneFormat(zone) {
  const key = zone || "UTC";
  if (!ZONE_FORMATS.has(key)) {
    let format;
    try {
      format = new Intl.DateTimeFormat("en-CA", {timeZone: key, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
        hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "longOffset"});
    } catch (e) {
      format = zoneFormat("UTC"); // an unknown zone name: UTC, which the "+00:00" then says
    }
    ZONE_FORMATS.set(key, format);
  }
  return ZONE_FORMATS.get(key);
}

// {date: "2026-11-19", clock: "17:45 -08:00"} of an ISO instant in zone.
function zonedParts(iso, zone) {
  const parts = {};
  zoneFormat(zone).formatToParts(new Date(iso)).forEach(p => { parts[p.type] = p.value; });
  const offset = (parts.timeZoneName || "GMT").replace("GMT", "") || "+00:00";
  const seconds = parts.second !== "00" || new Date(iso).getUTCMilliseconds() !== 0 ? ":" + parts.second : "";
  return {date: parts.year + "-" + parts.month + "-" + parts.day, clock: parts.hour + ":" + parts.minute + seconds + " " + offset};
}

// "17:45 -08:00": where the day is said already.
function time(iso, zone) {
  if (!iso) return "";
  return zonedParts(iso, zone).clock;
}

// "2026-11-19 17:45 -08:00".
function dateTime(iso, zone) {
  if (!iso) return "";
  const p = zonedParts(iso, zone);
  return p.date + " " + p.clock;
}

// A <time> of an instant in zone, the UTC instant in its title (hover) and datetime.
function timeEl(iso, zone, withDate = true, cls = null) {
  if (!iso) return "";
  return el("time", {datetime: iso, title: iso, class: cls}, withDate ? dateTime(iso, zone) : time(iso, zone));
}

// The zone of a schedule of a status: its window's (the schedule's own), else the pipeline's.
function zoneOf(status, scheduleId) {
  const s = status.schedules.find(x => x.scheduleId === scheduleId);
  return (s && s.window && s.window.zone) || status.zone;
}

function nextText(next, zone) {
  if (!next) return "—";
  return next.at ? el("span", {}, next.what + " at ", timeEl(next.at, zone, false)) : next.what;
}

function dateQuery(prefix) {
  return dateInput.value ? prefix + "date=" + encodeURIComponent(dateInput.value) : "";
}

async function api(path) {
  const response = await fetch(path, {headers: {Accept: "application/json"}, cache: "no-store"});
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = {detail: text}; }
  if (!response.ok) {
    const detail = body && (body.detail || body.message || body.title) || response.statusText;
    throw new Error(path + ": HTTP " + response.status + " " + detail);
  }
  return body;
}

async function allStatusLines() {
  const lines = [];
  let cursor = null;
  do {
    const page = await api("/status?limit=100" + dateQuery("&") + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
    lines.push(...page.items);
    cursor = page.nextCursor || null;
  } while (cursor);
  return lines;
}

// ---- overview ----

// What a person filters the fleet by; kept across refreshes (and re-renders only the rows, so typing is not lost).
const filters = {q: "", state: "", team: "", owner: "", tier: "", label: ""};
const DONE = new Set(["COMPLETED", "EXCLUDED", "SKIPPED", "DRY_RUN", "BEFORE_REGISTRATION", "PAUSED"]);
// DayState.urgency(): the order within a rank.
const STATE_URGENCY = {FAILED: 10, NOT_READY: 9, EVALUATING: 8, TRIGGERING: 7, RUNNING: 6, MONITORING: 5,
  WAITING_FOR_WINDOW: 4, DRY_RUN: 3, BEFORE_REGISTRATION: 2, PAUSED: 2, SKIPPED: 1, COMPLETED: 0, EXCLUDED: 0};

/** 0 missed, 1 at risk, 2 failed, 3 waiting or moving, 4 done: the order on-call reads the fleet in. */
function urgencyRank(line) {
  const sla = line.sla && line.sla.state;
  if (sla === "MISSED") return 0;
  if (sla === "AT_RISK") return 1;
  if (line.state === "FAILED") return 2;
  return DONE.has(line.state) ? 4 : 3;
}

function byUrgency(a, b) {
  return urgencyRank(a) - urgencyRank(b)
    || (STATE_URGENCY[b.state] || 0) - (STATE_URGENCY[a.state] || 0)
    || a.pipelineId.localeCompare(b.pipelineId);
}

function labelPairs(line) {
  return Object.entries(line.labels || {}).map(([k, v]) => k + "=" + v);
}

function matchesFilters(line) {
  if (filters.q && !line.pipelineId.toLowerCase().includes(filters.q.toLowerCase())) return false;
  if (filters.state && line.state !== filters.state && !(line.schedules || []).some(s => s.state === filters.state)) return false;
  if (filters.team && (line.team || "") !== filters.team) return false;
  if (filters.owner && (line.owner || "") !== filters.owner) return false;
  if (filters.tier && String(line.tier ?? "") !== filters.tier) return false;
  if (filters.label && !labelPairs(line).includes(filters.label)) return false;
  return true;
}

/** Each filter's values in the lines: what its options offer. */
function filterValues(lines) {
  return {
    state: lines.flatMap(l => [l.state, ...(l.schedules || []).map(s => s.state)]),
    team: lines.map(l => l.team),
    owner: lines.map(l => l.owner),
    tier: lines.map(l => l.tier),
    label: lines.flatMap(labelPairs),
  };
}

/** A filter's options for the values now (the chosen one kept even when no line has it any more). */
function filterOptions(select, key, label, values) {
  const distinct = new Set(values.filter(v => v !== undefined && v !== null && v !== "").map(String));
  if (filters[key]) distinct.add(filters[key]);
  select.replaceChildren(el("option", {value: ""}, "any " + label),
    ...[...distinct].sort().map(v => el("option", {value: v}, v)));
  select.value = filters[key];
}

function filterSelect(key, label, values) {
  const select = el("select", {id: "filter-" + key, "aria-label": label, "data-label": label});
  filterOptions(select, key, label, values);
  select.addEventListener("change", () => { filters[key] = select.value; refreshRows(); });
  return select;
}

/** A schedule cell: one schedule by id; many (an hourly day has 24) as the headline one and a count per state. */
function scheduleCell(line) {
  const schedules = line.schedules || [];
  if (schedules.length <= 1) return line.scheduleId;
  const counts = {};
  schedules.forEach(s => { counts[s.state] = (counts[s.state] || 0) + 1; });
  return el("div", {class: "schedules", "data-schedules": schedules.length},
    el("div", {}, line.scheduleId + " ", stateBadge(line.state)),
    el("div", {class: "muted small"}, schedules.length + " windows: " + Object.entries(counts)
      .map(([state, n]) => n + " " + state.replaceAll("_", " ").toLowerCase()).join(", ")));
}

function overviewRow(line) {
  return el("tr", {
      class: "clickable" + (urgencyRank(line) <= 2 ? " pinned" : ""), "data-pipeline": line.pipelineId, "data-state": line.state,
      "data-urgency": urgencyRank(line),
      onclick: () => { location.hash = withDate("#/p/" + encodeURIComponent(line.pipelineId)); }},
    el("td", {}, el("strong", {}, line.pipelineId), pauseBadge(line.paused, line.zone), forcedBadge(line.forced, line.zone), muteBadge(line.muted, line.zone),
      line.team ? el("div", {class: "muted small team"}, line.team) : null),
    el("td", {class: "mono"}, line.date),
    el("td", {}, stateBadge(line.state)),
    el("td", {}, slaFlag(line.sla, line.zone)),
    el("td", {}, scheduleCell(line)),
    el("td", {}, line.reason),
    el("td", {}, nextText(line.nextAction, line.zone)));
}

let overviewLines = [];

/** The table's rows for the lines and filters now: failures and late days pinned on top, the rest by urgency. */
function refreshRows() {
  const body = document.getElementById("overview-body");
  if (!body) return;
  const shown = overviewLines.filter(matchesFilters).sort(byUrgency);
  const pinned = shown.filter(l => urgencyRank(l) <= 2);
  const rest = shown.filter(l => urgencyRank(l) > 2);
  const rows = [];
  if (pinned.length) rows.push(el("tr", {class: "group"}, el("td", {colspan: 7}, "needs attention (" + pinned.length + ")")));
  rows.push(...pinned.map(overviewRow));
  if (pinned.length && rest.length) rows.push(el("tr", {class: "group"}, el("td", {colspan: 7}, "the rest (" + rest.length + ")")));
  rows.push(...rest.map(overviewRow));
  body.replaceChildren(...rows);
  document.getElementById("shown").textContent =
    shown.length === overviewLines.length ? overviewLines.length + " pipelines" : shown.length + " of " + overviewLines.length + " pipelines";
}

async function renderOverview(gen) {
  const lines = await allStatusLines();
  if (gen !== generation) return false;
  overviewLines = lines;
  const counts = {};
  lines.forEach(l => { counts[l.state] = (counts[l.state] || 0) + 1; });
  const summary = el("div", {class: "legend", id: "legend"}, Object.entries(counts).map(([s, n]) => el("span", {}, stateBadge(s), " " + n)));
  if (view.dataset.page === "overview" && document.getElementById("overview-body")) {
    // A refresh: new lines, same toolbar (a person may be typing in it); the filters offer what the lines have now.
    const values = filterValues(lines);
    document.querySelectorAll("#filters select").forEach(select => {
      const key = select.id.slice("filter-".length);
      filterOptions(select, key, select.dataset.label, values[key]);
    });
    document.getElementById("legend").replaceWith(summary);
    document.getElementById("cascade").replaceChildren(cascadeGraph(lines, null));
    refreshRows();
    return lines.some(l => l.schedules.some(s => !SETTLED.has(s.state)));
  }
  const search = el("input", {id: "filter-q", type: "search", placeholder: "search pipelines", "aria-label": "search pipelines"});
  search.value = filters.q;
  search.addEventListener("input", () => { filters.q = search.value; refreshRows(); });
  const values = filterValues(lines);
  const toolbar = el("div", {class: "toolbar", id: "filters"},
    search,
    ["state", "team", "owner", "tier", "label"].map(key => filterSelect(key, key, values[key])),
    el("span", {id: "shown", class: "muted"}));
  view.dataset.page = "overview";
  view.replaceChildren(
    el("h1", {}, "Pipeline days"),
    summary,
    lines.length === 0 ? el("p", {class: "card muted"}, "No pipelines registered yet (interlock apply -f examples/).") :
      el("div", {}, toolbar,
        el("table", {id: "overview"},
          el("thead", {}, el("tr", {}, ["pipeline", "date", "state", "SLA", "schedule", "why", "next"].map(h => el("th", {}, h)))),
          el("tbody", {id: "overview-body"}))),
    el("h2", {}, "Cascade"),
    el("div", {class: "card", id: "cascade"}, cascadeGraph(lines, null)));
  refreshRows();
  return lines.some(l => l.schedules.some(s => !SETTLED.has(s.state)));
}

// ---- cascade graph: columns by depth (upstreams left), edges upstream → downstream ----

function cascadeGraph(lines, focus) {
  const byId = new Map(lines.map(l => [l.pipelineId, l]));
  const ids = new Set();
  if (focus) {
    const walk = (id, dir, seen) => {
      if (seen.has(id)) return;
      seen.add(id); ids.add(id);
      const line = byId.get(id);
      if (line) (dir === "up" ? line.upstreams : line.downstreams).forEach(n => walk(n, dir, seen));
    };
    walk(focus, "up", new Set());
    walk(focus, "down", new Set());
  } else {
    lines.forEach(l => { ids.add(l.pipelineId); l.upstreams.forEach(u => ids.add(u)); });
  }
  const depth = new Map();
  const depthOf = (id, trail = new Set()) => {
    if (depth.has(id)) return depth.get(id);
    if (trail.has(id)) return 0;
    trail.add(id);
    const ups = (byId.get(id)?.upstreams || []).filter(u => ids.has(u));
    const d = ups.length ? Math.max(...ups.map(u => depthOf(u, trail))) + 1 : 0;
    depth.set(id, d);
    return d;
  };
  [...ids].forEach(id => depthOf(id));
  const columns = [];
  [...ids].sort().forEach(id => { const d = depth.get(id); (columns[d] ||= []).push(id); });
  const W = 190, H = 46, GX = 70, GY = 18;
  const pos = new Map();
  columns.forEach((col, c) => col.forEach((id, r) => pos.set(id, {x: 10 + c * (W + GX), y: 10 + r * (H + GY)})));
  const width = 20 + columns.length * (W + GX) - GX;
  const height = 20 + Math.max(1, ...columns.map(c => c.length)) * (H + GY) - GY;
  const root = svg("svg", {id: "cascade", width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "cascade graph"});
  root.append(svg("defs", {}, svg("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto"},
    svg("path", {d: "M0,0 L10,5 L0,10 z", fill: "#8891a3"}))));
  for (const id of ids) {
    for (const up of byId.get(id)?.upstreams || []) {
      if (!pos.has(up)) continue;
      const a = pos.get(up), b = pos.get(id);
      const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x - 2, y2 = b.y + H / 2;
      root.append(svg("path", {class: "edge", d: `M${x1},${y1} C${x1 + GX / 2},${y1} ${x2 - GX / 2},${y2} ${x2},${y2}`,
        "marker-end": "url(#arrow)", "data-edge": up + "->" + id}));
    }
  }
  for (const id of ids) {
    const p = pos.get(id);
    const state = byId.get(id)?.state || "NOT_READY";
    const g = svg("g", {class: "node " + state, "data-node": id, "data-state": state, transform: `translate(${p.x},${p.y})`},
      svg("rect", {width: W, height: H, rx: 8, ry: 8}),
      svg("text", {x: 10, y: 19}, id === focus ? "▶ " + id : id),
      svg("text", {x: 10, y: 36}, byId.has(id) ? state.replaceAll("_", " ") : "not registered"));
    g.addEventListener("click", () => { location.hash = withDate("#/p/" + encodeURIComponent(id)); });
    root.append(g);
  }
  return root;
}

// ---- pipeline day ----

async function renderPipeline(id, gen) {
  const q = dateQuery("?");
  const [status, timeline, lines, backfillList] = await Promise.all([
    api("/pipelines/" + encodeURIComponent(id) + "/status" + q),
    api("/pipelines/" + encodeURIComponent(id) + "/timeline" + q),
    allStatusLines(),
    api("/pipelines/" + encodeURIComponent(id) + "/backfills")]);
  // The newest backfills in full (their days), the older ones as a line each.
  const shownBackfills = await Promise.all(backfillList.items.slice(0, BACKFILLS_SHOWN)
    .map(b => api("/backfills/" + encodeURIComponent(b.backfillId))));
  if (gen !== generation) return false;
  view.dataset.page = "pipeline";
  // replaceChildren would write a null (no owner, no mute) as the text "null": leave those out.
  view.replaceChildren(...[
    el("p", {}, el("a", {href: withDate("#/")}, "← all pipelines")),
    el("h1", {}, status.pipelineId, " ", el("span", {class: "muted"}, "on " + status.date + " (" + status.zone + ")")),
    ownershipLine(status.ownership),
    pauseBanner(status.paused, status.zone),
    muteBanner(status.muted, status.zone),
    el("div", {class: "grid"}, status.schedules.map(s => scheduleCard(s, zoneOf(status, s.scheduleId)))),
    el("h2", {}, "Timeline"),
    el("div", {class: "card"}, gantt(status, timeline)),
    backfillSection(shownBackfills, backfillList.items.slice(BACKFILLS_SHOWN), status.zone),
    el("h2", {}, "Cascade"),
    el("div", {class: "card"}, cascadeGraph(lines, status.pipelineId)),
    el("h2", {}, "Traits over the day"),
    traitTable(timeline, status),
    el("h2", {}, "Runs and their state path"),
    runTable(timeline, status),
    el("h2", {}, "Alerts"),
    eventTable(timeline.alerts, "alerts", "No alerts this day.", status),
    el("h2", {}, "Events" + (timeline.complete ? "" : " (the oldest are not shown)")),
    el("div", {class: "scroll"}, eventTable(timeline.events.slice().reverse(), "events", "No events this day.", status))
  ].filter(node => node !== null));
  return status.schedules.some(s => !SETTLED.has(s.state))
    || backfillList.items.some(b => b.status === "RUNNING" || b.status === "CANCELLING");
}

// ---- backfills: a grid of each one's days ----

const BACKFILLS_SHOWN = 3;

function backfillCounts(c) {
  return c.completed + " completed, " + c.failed + " failed, " + c.skipped + " skipped, " + c.running + " running, " +
    c.pending + " pending of " + c.total;
}

function backfillSection(full, older, zone) {
  if (full.length === 0) return null;
  return el("div", {id: "backfills"},
    el("h2", {}, "Backfills"),
    ...full.map(b => el("div", {class: "card backfill", "data-backfill": b.backfillId, "data-status": b.status},
      el("div", {},
        el("strong", {}, "Backfill " + b.from + " → " + b.to), " ",
        el("span", {class: "bf-status bf-" + b.status.toLowerCase()}, b.status), " ",
        el("span", {class: "bf-counts"}, backfillCounts(b.counts))),
      el("div", {class: "muted"},
        "mode " + b.mode + ", " + b.maxConcurrency + " at a time, " + (b.cascade ? "cascading" : "no cascade") +
          "; asked for by " + b.requestedBy + " at " + dateTime(b.requestedAt, zone) + ": " + b.reason +
          (b.cancelledBy ? "; cancelled by " + b.cancelledBy + (b.cancelReason ? ": " + b.cancelReason : "") : "")),
      el("div", {class: "bf-grid"}, b.days.map(d => el("span", {
        class: "bf-day bf-" + d.status.toLowerCase(),
        "data-date": d.date, "data-schedule": d.scheduleId, "data-status": d.status,
        title: d.date + " " + d.scheduleId + ": " + d.status + (d.reason ? " — " + zonedText(d.reason, zone) : "")
      }, d.date.slice(5) + (b.schedules.length > 1 || d.scheduleId.includes(".") ? " " + d.scheduleId : "")))))),
    ...older.map(b => el("div", {class: "muted backfill-line", "data-backfill": b.backfillId},
      "Backfill " + b.from + " → " + b.to + " " + b.status + ": " + backfillCounts(b.counts))));
}

// ---- whose a pipeline is, and the mute on its alerts ----

function muteBadge(muted, zone) {
  if (!muted || muted.state !== "active") return null;
  return el("span", {class: "mute-badge", title: "alerts muted until " + dateTime(muted.until, zone) + " (" + muted.until + "): " + muted.reason}, "muted");
}

function forcedBadge(forced, zone) {
  if (!forced) return null;
  return el("span", {class: "forced-badge", title: "forced ready by " + forced.by + " at " + dateTime(forced.at, zone) + ": " + forced.reason}, "forced");
}

function pauseBadge(paused, zone) {
  if (!paused) return null;
  return el("span", {class: "pause-badge", title: "paused since " + dateTime(paused.pausedAt, zone) + " (" + paused.pausedAt + ") by " + paused.pausedBy + ": " + paused.reason}, "paused");
}

function pauseBanner(paused, zone) {
  if (!paused) return null;
  return el("div", {id: "pause", class: "card pause-banner"},
    el("strong", {}, "Paused"),
    " since ", timeEl(paused.pausedAt, zone), " by " + paused.pausedBy + ": " + paused.reason +
      ". No new execution starts until it is resumed (interlock resume " + paused.pipelineId +
      "); days already running finish.");
}

function ownershipLine(o) {
  if (!o || (!o.owner && !o.team && !o.runbook && !(o.labels && Object.keys(o.labels).length))) return null;
  const parts = [];
  if (o.owner) parts.push(el("span", {}, "owner ", el("strong", {}, o.owner)));
  if (o.team) parts.push(el("span", {}, "team ", el("strong", {}, o.team)));
  Object.entries(o.labels || {}).forEach(([k, v]) => parts.push(el("span", {class: "label"}, k + ": " + v)));
  if (o.runbook && /^https?:\/\//i.test(o.runbook)) parts.push(el("a", {href: o.runbook, target: "_blank", rel: "noopener"}, "runbook"));
  return el("p", {id: "ownership", class: "ownership"}, parts);
}

function muteBanner(muted, zone) {
  if (!muted) return null;
  const active = muted.state === "active";
  return el("div", {id: "mute", class: "card mute-banner"},
    el("strong", {}, active ? "Alerts muted" : "Alerts will be muted"),
    " (" + muted.scope + " " + muted.target + ") ", active ? "" : ["from ", timeEl(muted.from, zone), " "],
      "until ", timeEl(muted.until, zone), " by " + muted.mutedBy + ": " + muted.reason +
      ". Alerts raised meanwhile are recorded as ALERT_MUTED events, not sent.");
}

function scheduleCard(s, zone) {
  const kv = el("dl", {class: "kv"});
  const add = (k, v) => { if (v !== null && v !== undefined && v !== "") kv.append(el("dt", {}, k), el("dd", {}, v)); };
  add("why", el("span", {class: "reason"}, s.reason));
  add("next", el("span", {class: "next-action", "data-at": s.nextAction?.at || ""}, nextText(s.nextAction, zone)));
  add("SLA", s.sla ? el("span", {}, slaFlag(s.sla, zone), " " + s.sla.what + " deadline ", timeEl(s.sla.deadline, zone)) : null);
  if (s.sla && s.sla.delays && s.sla.delays.length) add("delays", el("div", {}, s.sla.delays.map(d =>
    el("div", {"data-delayed": d.pipelineId}, d.pipelineId + " on " + d.date))));
  add("monitoring", monitoringText(s.monitoring, zone));
  add("deadline", s.deadline ? el("span", {}, s.deadline.what + " ", timeEl(s.deadline.at, zone, true, "deadline-at"), s.deadline.breached ? " (passed)" : "") : null);
  add("window opens", timeEl(s.window?.opensAt, zone));
  add("attempts", s.attempts.used + " of " + s.attempts.max + " failed");
  add("lock", s.lockHolder ? el("span", {class: "mono"}, s.lockHolder) : "free");
  add("run", s.runId ? el("span", {class: "mono"}, s.runId + (s.runStatus ? " (" + s.runStatus + ")" : "")) : null);
  if (s.job) add("job", s.job.link ? el("a", {href: s.job.link, rel: "noreferrer", target: "_blank"}, s.job.id || s.job.type) : (s.job.id || s.job.type));
  add("evaluated", s.lastEvaluatedAt ? timeEl(s.lastEvaluatedAt, zone) : null);
  // A degraded start: the traits the run went on without once the readiness rule's proceedAt had passed.
  // (or, for a rollup with minCount, the periods it went on without).
  // A day an operator forced ready: who and why; what its run went without follows.
  add("forced", s.forced ? el("span", {class: "forced"}, "forced ready by " + s.forced.by + ": " + s.forced.reason +
    " (", timeEl(s.forced.at, zone), ")") : null);
  add("proceeded without", s.proceededWithout && s.proceededWithout.length
    ? el("span", {class: "proceeded-without"}, s.proceededWithout.join(", ")) : null);
  if (s.upstreams.length) add("upstreams", el("div", {}, s.upstreams.map(u =>
    el("div", {"data-upstream": u.pipelineId}, u.pipelineId + " ", stateBadge(u.state), " " + u.reason))));
  // The traits that hold the day back, and the optional ones that did not pass (shown, never blocking).
  const traitTable = (traits, cls, heading, rowClass) => !traits || traits.length === 0 ? null : el("table", {class: cls},
    el("thead", {}, el("tr", {}, [heading, "status", "observed", "reason"].map(h => el("th", {}, h)))),
    el("tbody", {}, traits.map(b => el("tr", {class: rowClass, "data-trait": b.traitType},
      el("td", {}, b.traitType, rollupProgress(b.value)), el("td", {}, b.status),
      el("td", {class: "mono"}, b.value ? JSON.stringify(b.value) : ""), el("td", {}, b.reason || "")))));
  const blocking = traitTable(s.blocking, "blocking", "blocking trait", "blocking-trait");
  const warnings = traitTable(s.warnings, "warnings", "optional trait (never blocks)", "warning-trait");
  // A dry run's DRY_RUN_* records: what the day would have done, recorded instead of done.
  const dryRun = !s.dryRun || s.dryRun.length === 0 ? null : el("table", {class: "dry-run"},
    el("thead", {}, el("tr", {}, ["dry run (recorded, not done)", "status", "at", "what"].map(h => el("th", {}, h)))),
    el("tbody", {}, s.dryRun.map(d => el("tr", {class: "dry-run-record", "data-kind": d.kind},
      el("td", {class: "mono"}, d.kind), el("td", {}, d.status || ""), el("td", {}, timeEl(d.at, zone)),
      el("td", {}, d.message || "")))));
  return el("section", {class: "card schedule", "data-schedule": s.scheduleId, "data-state": s.state},
    el("h3", {}, s.scheduleId, " ", stateBadge(s.state), " ", s.sla ? slaFlag(s.sla, zone) : ""), kv, blocking, warnings,
    postRunTable(s.postRun, zone), dryRun);
}

// The post-run checks of the day's latest checked run: each check's verdict, the ones that failed it first.
function postRunTable(postRun, zone) {
  if (!postRun) return null;
  const failing = c => c.required && c.status !== "PASS";
  const checks = postRun.checks.slice().sort((a, b) => failing(b) - failing(a));
  return el("table", {class: "post-run", "data-verdict": postRun.verdict},
    el("caption", {}, "post-run checks ", el("span", {class: "post-run-verdict " + postRun.verdict}, postRun.verdict),
      " at ", timeEl(postRun.at, zone, false), postRun.runId ? el("span", {class: "muted"}, " (run " + postRun.runId + ")") : ""),
    el("thead", {}, el("tr", {}, ["post-run check", "status", "required", "reason"].map(h => el("th", {}, h)))),
    el("tbody", {}, checks.map(c => el("tr", {class: "post-run-check" + (failing(c) ? " failing" : ""), "data-check": c.name, "data-status": c.status},
      el("td", {}, c.name), el("td", {}, c.status), el("td", {}, c.required ? "required" : "optional (never fails the day)"),
      el("td", {}, zonedText(c.reason, zone))))));
}

// Monitoring after completion: until when the data is watched for late changes, and the next round.
function monitoringText(m, zone) {
  if (!m) return null;
  return el("span", {class: "monitoring", "data-ends-at": m.endsAt || "", "data-next-round-at": m.nextRoundAt || ""},
    "watching for late data until ", timeEl(m.endsAt, zone), m.nextRoundAt ? ["; next round ", timeEl(m.nextRoundAt, zone)] : "");
}

// A rollup's periods: how many are in (a bar and "23/24 in"), the missing ones in its title and below it.
function rollupProgress(value) {
  const r = value && value.rollup;
  if (!r || typeof r.periods !== "number") return null;
  const all = r.missing || [];
  const more = r.periods - r.in - Math.min(all.length, 4);
  const shown = all.slice(0, 4).join(", ") + (more > 0 ? " and " + more + " more" : "");
  return el("div", {class: "rollup", "data-in": String(r.in), "data-periods": String(r.periods), title: all.length ? "missing: " + all.join(", ") : ""},
    el("progress", {max: String(r.periods), value: String(r.in)}),
    el("span", {class: "rollup-count"}, " " + r.in + "/" + r.periods + " in" + (r.needed < r.periods ? " (" + r.needed + " will do)" : "")),
    all.length ? el("div", {class: "rollup-missing muted"}, "missing " + shown) : null);
}

function gantt(status, timeline) {
  const phases = timeline.phases;
  const schedules = status.schedules.map(s => s.scheduleId);
  phases.forEach(p => { if (!schedules.includes(p.scheduleId)) schedules.push(p.scheduleId); });
  const legend = el("div", {class: "legend"}, Object.entries(PHASE_LABEL).map(([k, label]) =>
    el("span", {}, el("span", {class: "swatch " + PHASE_CLASS[k]}), label)));
  if (phases.length === 0) {
    return el("div", {}, legend, el("p", {class: "muted", id: "gantt-empty"}, "No run yet this day."));
  }
  const now = Date.parse(timeline.now);
  // Each schedule's deadline (its SLA's, else the schedule's own), marked on the axis; the range reaches it.
  const deadlines = status.schedules
    .map(s => ({scheduleId: s.scheduleId, at: s.sla?.deadline || s.deadline?.at, what: s.sla?.what || s.deadline?.what, state: s.sla?.state}))
    .filter(d => d.at);
  let start = Math.min(...phases.map(p => Date.parse(p.start)), ...deadlines.map(d => Date.parse(d.at)));
  const ongoing = phases.some(p => p.ongoing);
  let end = Math.max(ongoing ? now : 0, ...phases.map(p => Date.parse(p.end)), ...deadlines.map(d => Date.parse(d.at)));
  const pad = Math.max(1000, (end - start) * 0.03);
  start -= pad; end += pad;
  const LEFT = 110, W = 1000, ROW = 34, TOP = 26;
  const rowsPer = new Map();
  schedules.forEach(s => rowsPer.set(s, [...new Set(phases.filter(p => p.scheduleId === s).map(p => p.runId))]));
  let rowCount = 0;
  const rowOf = new Map();
  schedules.forEach(s => { rowsPer.get(s).forEach(r => rowOf.set(s + "/" + r, rowCount++)); if (rowsPer.get(s).length === 0) rowCount++; });
  const height = TOP + rowCount * ROW + 10;
  const x = t => LEFT + (t - start) / (end - start) * (W - LEFT - 10);
  const root = svg("svg", {id: "gantt", width: W, height, viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": "day timeline"});
  const axis = svg("g", {class: "axis"});
  for (let i = 0; i < 6; i++) {
    const t = start + (end - start) * i / 6;
    const iso = new Date(t).toISOString();
    axis.append(svg("g", {class: "tick"}, svg("title", {}, iso), svg("line", {x1: x(t), x2: x(t), y1: TOP - 6, y2: height - 6}),
      svg("text", {x: x(t) + 2, y: 14}, time(iso, status.zone))));
  }
  root.append(axis);
  let row = 0;
  for (const s of schedules) {
    const runs = rowsPer.get(s);
    if (runs.length === 0) {
      root.append(svg("text", {x: 4, y: TOP + row * ROW + 21}, s + " (no run)"));
      row++;
      continue;
    }
    runs.forEach((runId, i) => {
      const y = TOP + rowOf.get(s + "/" + runId) * ROW;
      root.append(svg("rect", {class: "lane", x: LEFT, y: y + 3, width: W - LEFT - 10, height: ROW - 6}));
      const attempt = phases.find(p => p.runId === runId)?.attempt;
      root.append(svg("text", {x: 4, y: y + 21}, s + " · run " + (attempt || i + 1)));
    });
  }
  for (const p of phases) {
    const y = TOP + rowOf.get(p.scheduleId + "/" + p.runId) * ROW;
    const x1 = x(Date.parse(p.start)), x2 = Math.max(x1 + 3, x(Date.parse(p.end)));
    const bar = svg("rect", {class: "bar " + PHASE_CLASS[p.phase] + (p.ongoing ? " ongoing" : ""), x: x1, y: y + 7, width: x2 - x1, height: ROW - 14,
      "data-phase": p.phase, "data-run": p.runId, "data-schedule": p.scheduleId},
      svg("title", {}, PHASE_LABEL[p.phase] + ": " + time(p.start, zoneOf(status, p.scheduleId)) + " – "
        + (p.ongoing ? "now" : time(p.end, zoneOf(status, p.scheduleId))) + (p.outcome ? " → " + p.outcome : "")
        + " (" + p.start + (p.ongoing ? "" : " – " + p.end) + ")"));
    root.append(bar);
  }
  for (const d of deadlines) {
    const dx = x(Date.parse(d.at));
    root.append(svg("g", {class: "deadline" + (d.state ? " " + d.state : ""), "data-deadline": d.scheduleId},
      svg("line", {x1: dx, x2: dx, y1: TOP - 8, y2: height - 4}),
      svg("text", {x: dx + 3, y: height - 8}, "⚑ " + d.scheduleId + " " + time(d.at, zoneOf(status, d.scheduleId))),
      svg("title", {}, d.scheduleId + " " + (d.what || "") + " deadline " + dateTime(d.at, zoneOf(status, d.scheduleId)) + " (" + d.at + ")")));
  }
  if (now <= end) root.append(svg("line", {class: "now", x1: x(now), x2: x(now), y1: TOP - 8, y2: height - 4}));
  return el("div", {}, legend, root);
}

function traitTable(timeline, status) {
  if (timeline.traits.length === 0) return el("p", {class: "muted"}, "No trait evaluated this day.");
  return el("div", {class: "scroll"}, el("table", {id: "traits"},
    el("thead", {}, el("tr", {}, ["time", "schedule", "trait", "status", "observed", "reason"].map(h => el("th", {}, h)))),
    el("tbody", {}, timeline.traits.slice().reverse().map(t => el("tr", {"data-trait": t.traitType},
      el("td", {}, timeEl(t.at, zoneOf(status, t.scheduleId), false)), el("td", {}, t.scheduleId), el("td", {}, t.traitType), el("td", {}, t.status),
      el("td", {class: "mono"}, t.value && Object.keys(t.value).length ? JSON.stringify(t.value) : ""), el("td", {}, t.reason || ""))))));
}

function runTable(timeline, status) {
  if (timeline.runs.length === 0) return el("p", {class: "muted"}, "No run this day.");
  return el("table", {id: "runs"},
    el("thead", {}, el("tr", {}, ["run", "schedule", "trigger", "status", "state path"].map(h => el("th", {}, h)))),
    el("tbody", {}, timeline.runs.map(r => el("tr", {"data-run": r.runId},
      el("td", {class: "mono"}, r.runId), el("td", {}, r.scheduleId), el("td", {}, r.triggerType || ""), el("td", {}, r.status || ""),
      el("td", {class: "path"}, r.path.map(step => el("span", {title: (step.message ? step.message + " " : "") + "(" + step.at + ")"}, step.status + " " + time(step.at, zoneOf(status, r.scheduleId)))))))));
}

// A stored message's UTC instants (…T09:00:00.000Z) as a person reads them in zone (ReadableTime.inText).
function zonedText(text, zone) {
  return (text || "").replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z\b/g,
    iso => isNaN(Date.parse(iso)) ? iso : dateTime(iso, zone));
}

function eventTable(events, id, empty, status) {
  if (events.length === 0) return el("p", {class: "muted", id: id + "-empty"}, empty);
  return el("table", {id},
    el("thead", {}, el("tr", {}, ["time", "schedule", "kind", "status", "message"].map(h => el("th", {}, h)))),
    el("tbody", {}, events.map(e => {
      const zone = e.scheduleId ? zoneOf(status, e.scheduleId) : status.zone;
      return el("tr", {"data-kind": e.kind},
        el("td", {}, timeEl(e.timestamp, zone, false)), el("td", {}, e.scheduleId || ""), el("td", {}, e.kind),
        el("td", {}, e.status || ""), el("td", {}, (e.traitType ? e.traitType + ": " : "") + zonedText(e.message, zone)));
    })));
}

// ---- metrics: what the functions published, per pipeline (GET /local/metrics, as `interlock metrics`) ----

// The metrics a person reads first, each by the statistic its dashboard graph reads (docs/metrics.md); any other
// metric in the answer follows by its sum. The names are the functions' (dev.interlock.log.Metric).
const METRIC_COLUMNS = [
  {name: "Evaluations", label: "evaluations", stat: "sum"},
  {name: "NotReadyRounds", label: "NOT READY rounds", stat: "sum"},
  {name: "TimeToReady", label: "window open → ready (max)", stat: "max"},
  {name: "Triggers", label: "triggers", stat: "sum"},
  {name: "RunsCompleted", label: "runs completed", stat: "sum"},
  {name: "RunsFailed", label: "runs failed", stat: "sum"},
  {name: "JobDuration", label: "job duration (max)", stat: "max"},
  {name: "SlaMargin", label: "SLA margin (min)", stat: "min"},
  {name: "SlaMissed", label: "completed late", stat: "sum"},
];

// A number as `interlock metrics` prints it: whole without ".0", else one decimal.
function metricNumber(v) {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

function metricCell(column, stats) {
  if (!stats) return el("td", {class: "muted", "data-metric": column.name}, "—");
  const v = stats[column.stat];
  const seconds = stats.unit === "Seconds";
  return el("td", {
      class: "num" + (column.name === "SlaMargin" && v < 0 || column.name === "RunsFailed" && v > 0
        || column.name === "SlaMissed" && v > 0 ? " bad" : ""),
      "data-metric": column.name, "data-value": String(v),
      title: column.name + ": " + stats.count + " data points; sum " + metricNumber(stats.sum) + ", min " + metricNumber(stats.min)
        + ", max " + metricNumber(stats.max) + " " + stats.unit},
    seconds ? span(Math.round(v)) : metricNumber(v));
}

function alertsCell(alerts) {
  const kinds = Object.entries(alerts || {});
  if (kinds.length === 0) return el("td", {class: "muted", "data-metric": "Alerts"}, "—");
  return el("td", {"data-metric": "Alerts"}, kinds.map(([kind, n]) =>
    el("div", {class: "alert-kind", "data-alert-kind": kind}, kind + " " + metricNumber(n))));
}

/** The fleet's line: every pipeline's statistics together (sums and counts added, the extremes of each). */
function fleetMetrics(pipelines) {
  const metrics = {}, alerts = {};
  for (const p of pipelines) {
    for (const [name, s] of Object.entries(p.metrics || {})) {
      const f = metrics[name] ||= {count: 0, sum: 0, min: Infinity, max: -Infinity, unit: s.unit};
      f.count += s.count; f.sum += s.sum; f.min = Math.min(f.min, s.min); f.max = Math.max(f.max, s.max);
    }
    for (const [kind, n] of Object.entries(p.alerts || {})) alerts[kind] = (alerts[kind] || 0) + n;
  }
  return {metrics, alerts};
}

/** Pipelines that failed, ran late or alerted first; then by name. */
function metricsTrouble(p) {
  const m = p.metrics || {};
  return (m.RunsFailed?.sum || 0) + (m.SlaMissed?.sum || 0) + Object.values(p.alerts || {}).reduce((a, b) => a + b, 0);
}

async function renderMetrics(gen) {
  const response = await fetch("/local/metrics", {headers: {Accept: "application/json"}, cache: "no-store"});
  if (gen !== generation) return false;
  view.dataset.page = "metrics";
  if (response.status === 404 || response.status === 403) {
    // A deployed stack (interlock ui --endpoint): its metrics are in CloudWatch, not behind the API.
    view.replaceChildren(el("h1", {}, "Metrics"), el("p", {class: "card", id: "metrics-elsewhere"},
      "This API has no /local/metrics: only a local runtime (interlock up) sums the functions' metric lines. " +
      "On AWS the same metrics are in CloudWatch, namespace Interlock (the stack's MetricsDashboard)."));
    return false;
  }
  if (!response.ok) throw new Error("/local/metrics: HTTP " + response.status + " " + response.statusText);
  const pipelines = (await response.json()).pipelines || [];
  const known = new Set(METRIC_COLUMNS.map(c => c.name).concat(["Alerts"]));
  const others = [...new Set(pipelines.flatMap(p => Object.keys(p.metrics || {})))].filter(n => !known.has(n)).sort()
    .map(name => ({name, label: name, stat: "sum"}));
  const columns = METRIC_COLUMNS.concat(others);
  const row = (p, fleet) => el("tr", {
      class: fleet ? "fleet" : "clickable", "data-pipeline": fleet ? null : p.pipelineId,
      onclick: fleet || !p.pipelineId ? null : () => { location.hash = withDate("#/p/" + encodeURIComponent(p.pipelineId)); }},
    el(fleet ? "th" : "td", fleet ? {scope: "row"} : {}, fleet ? "fleet (" + pipelines.length + " pipelines)"
      : p.pipelineId ? el("strong", {}, p.pipelineId) : el("span", {class: "muted"}, "(no pipeline)")),
    columns.map(c => metricCell(c, (p.metrics || {})[c.name])),
    alertsCell(p.alerts));
  const sorted = pipelines.slice().sort((a, b) => metricsTrouble(b) - metricsTrouble(a) || a.pipelineId.localeCompare(b.pipelineId));
  view.replaceChildren(
    el("h1", {}, "Metrics"),
    el("p", {class: "muted"}, "What the functions published since this runtime started, per pipeline: the numbers " +
      "interlock metrics prints (GET /local/metrics). Every day together, whatever the date above; durations show the " +
      "longest, the SLA margin the smallest (negative: late). Hover a number for its count, sum, min and max."),
    pipelines.length === 0 ? el("p", {class: "card muted", id: "metrics-empty"}, "Nothing published yet: no pipeline has been evaluated since the runtime started.") :
      el("div", {class: "scroll-x"}, el("table", {id: "metrics"},
        el("thead", {}, el("tr", {}, el("th", {scope: "col"}, "pipeline"), columns.map(c => el("th", {scope: "col", title: c.name}, c.label)),
          el("th", {scope: "col", title: "Alerts by AlertKind"}, "alerts by kind"))),
        el("tbody", {}, row(fleetMetrics(pipelines), true), sorted.map(p => row(p, false))))));
  // A running sum: read again as often as a moving day (one small local read).
  return true;
}

// ---- routing and refresh ----

// The date travels in the hash (#/?date=… or #/p/<id>?date=…) so a view can be linked and reloaded as it is.
function dateFromHash() {
  const query = location.hash.split("?")[1] || "";
  const date = new URLSearchParams(query).get("date");
  if (date && /^\d{4}-\d{2}-\d{2}$/.test(date)) dateInput.value = date;
}

function withDate(hash) {
  return dateInput.value ? hash + "?date=" + dateInput.value : hash;
}

async function render() {
  const gen = ++generation;
  clearTimeout(timer);
  dateFromHash();
  const match = location.hash.match(/^#\/p\/([^?]+)/);
  let moving = true;
  const started = performance.now();
  try {
    moving = match ? await renderPipeline(decodeURIComponent(match[1]), gen)
      : /^#\/metrics\b/.test(location.hash) ? await renderMetrics(gen) : await renderOverview(gen);
    if (gen === generation) {
      // The view this render drew: a hash change keeps the page, so until now it showed the view before.
      view.dataset.shown = location.hash;
      refreshed.textContent = "updated " + new Date().toLocaleTimeString();
      // How long this render took, reads and drawing (the browser tests print it for a large fleet).
      refreshed.dataset.ms = String(Math.round(performance.now() - started));
      refreshed.dataset.renders = String(Number(refreshed.dataset.renders || 0) + 1);
    }
  } catch (e) {
    if (gen === generation) {
      view.dataset.page = "error";
      view.dataset.shown = location.hash;
      view.replaceChildren(el("p", {class: "error", id: "error"}, e.message));
    }
  }
  if (gen === generation) timer = setTimeout(render, moving ? REFRESH_MOVING_MS : REFRESH_SETTLED_MS);
}

dateInput.addEventListener("change", () => { location.hash = withDate(location.hash.split("?")[0] || "#/"); render(); });
document.getElementById("today").addEventListener("click", () => {
  dateInput.value = "";
  location.hash = location.hash.split("?")[0] || "#/";
  render();
});
window.addEventListener("hashchange", render);
render();
