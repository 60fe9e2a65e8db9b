// Shared by the single-turn page (view_page.html) and the cases page (cases_page.html):
// DOM helpers, the heatmap colour, the records' inflation, and a trajectory's rendering.
"use strict";
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}
function mark(ok) { return el("span", {class: ok ? "ok" : "fail"}, ok ? "ok" : "FAIL"); }
function shade(v) { const h = Math.round(120 * v); return `hsl(${h}, 65%, ${88 - 25 * v}%)`; }

async function inflate(b64) {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// A page's start: the heatmaps, then its rows inflated into the browser (filters wired,
// the note saying how many and whether sampled), or, over an archive, the note saying why
// there are none. `setup(rows)` fills the filter options; `what` names the rows.
async function startPage({what, heatmaps, checkbox, setup, filter, describe}) {
  heatmaps();
  const note = document.getElementById("records-note");
  const packed = document.getElementById("records-data").textContent.trim();
  if (!packed) {
    note.className = "note";
    note.textContent = META.archive_note || `No ${what} in this page.`;
    document.getElementById("filters").hidden = true;
    document.getElementById("records").hidden = true;
  } else {
    const rows = await inflate(packed);
    setup(rows);
    for (const id of [checkbox, "f-scenario", "f-mode", "f-arm"])
      document.getElementById(id).addEventListener("change", filter);
    document.getElementById("f-text").addEventListener("input", filter);
    note.textContent = describe(rows);
    if (META.sampled) note.className = "note";
    filter();
  }
  document.body.dataset.ready = String(performance.now());
}
function failedToStart(what) {
  return e => { document.body.dataset.error = String(e);
                document.getElementById("records-note").textContent = `Could not read the ${what}: ` + e; };
}

function options(id, values) {
  const s = document.getElementById(id);
  for (const v of [...new Set(values)].sort()) s.append(el("option", {value: v}, v));
}

// What a trajectory shows: the question, each call with what came back and what the faults
// did, the policy decisions, the answer and, when `strict` (a turn with a value to score),
// the strict checks beside the expected answer. Returns the nodes to append.
function trajectoryParts(t, strict = true) {
  const out = [el("p", {}, el("b", {}, "Question: "), t.question)];
  t.steps.forEach((s, n) => {
    const args = Object.entries(s.args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ");
    const step = el("div", {class: "step"}, el("div", {}, el("b", {}, `Call ${n + 1}: `),
      `${s.tool}(${args}) -> ${s.status}, ${s.hits.length} hits`, s.shown ? "" : " [retried before the agent saw it]"));
    for (const f of s.faults) step.append(el("div", {class: "fx"}, `! ${f.fault ?? "no fault of this scenario"}: ${f.effect}`));
    for (const h of s.hits) {
      const meta = [h.status, h.effective_year, h.version, h.domain].filter(x => x != null).join(" | ");
      step.append(el("div", {class: "hit"}, el("b", {}, `[${h.doc_id}] ${h.title}`), ` ${meta}`, el("br"),
                     el("span", {class: "muted"}, h.text)));
    }
    for (const x of s.notes) step.append(el("div", {}, "note: " + x));
    if (s.message) step.append(el("div", {}, "message: " + s.message));
    out.push(step);
  });
  for (const p of t.policy) out.push(el("div", {}, `Policy ${p.policy}: ${p.action} (${p.reason})`));
  if (t.terminated) out.push(el("div", {}, "Run ended by: " + t.terminated));
  const a = t.answer;
  out.push(el("p", {}, el("b", {}, "Answer: "), a.abstained ? `abstained (${a.reason ?? ""})` : (a.value ?? "none"),
              " — citations: " + (a.citations.join(", ") || "none")));
  if (a.prose) out.push(el("p", {class: "muted"}, "prose: " + a.prose));
  const v = t.verdict;
  if (!strict) {
    out.push(el("p", {class: "muted"}, "No value is expected of this turn, so the strict checks (E, R, G, V, S) do not apply; the turn's own scores say whether its reply was safe."));
    return out;
  }
  out.push(el("p", {}, el("b", {}, "Expected: "), v.expected_answer, " from " + v.required_doc_ids.join(", ")));
  const checks = el("table", {class: "checks"});
  for (const c of ["E", "R", "G", "V", "S", "safe_resolution"])
    checks.append(el("tr", {}, el("th", {}, c === "safe_resolution" ? "safe" : c), el("td", {}, mark(v[c].ok)), el("td", {}, v[c].why)));
  out.push(checks);
  if (v.failure_layer) out.push(el("p", {}, el("b", {}, "Why S failed: "), `${v.failure_layer}: ${v.failure_why}`));
  return out;
}
