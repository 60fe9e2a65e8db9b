"""The page ``layerrag view`` writes, driven in a real browser: Debian's headless chromium.

``.ci/run`` installs chromium and chromium-driver where they are missing; where they cannot
be installed these tests skip and say why. The page is opened from a file:// URL, as a
double-click opens it, on the full default run (the session's ``deterministic_run``) and
on a small cases run (tests/view/conftest.py). ``LAYERRAG_VIEW_SCREENSHOT=1`` also writes
docs/img/view.png and docs/img/view-cases.png, the screenshots in docs/view.md.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="chromium not installed: apt-get install chromium chromium-driver (.ci/run does)")
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "img" / "view.png"
CASES_SCREENSHOT = SCREENSHOT.with_name("view-cases.png")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    yield driver
    driver.quit()


def _ready(driver: Any, timeout: float = 20.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready = driver.execute_script("return document.body && document.body.dataset.ready")
        error = driver.execute_script("return document.body && document.body.dataset.error")
        assert not error, error
        if ready:
            return float(ready)
        time.sleep(0.05)
    raise AssertionError("the page never became ready")


def _rows(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#rows tr').length"))


def test_the_page_renders_filters_and_opens_a_record_beside_its_twin(
        full_page: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(full_page.as_uri())
    ready_ms = _ready(browser)
    heat = browser.find_elements(By.CSS_SELECTOR, "#heatmaps table.heat td.cell")
    assert len(heat) == 9 * 2 * 2  # nine scenarios x two modes, S and safe
    assert browser.find_elements(By.CSS_SELECTOR, "#tables table")
    assert "4320 of 4320 records match" in browser.find_element(By.ID, "count").text

    browser.find_element(By.ID, "f-failed").click()
    Select(browser.find_element(By.ID, "f-scenario")).select_by_value("stale_index")
    count = browser.find_element(By.ID, "count").text
    assert count.startswith("480 of 4320"), count
    assert _rows(browser) == 300  # the list shows the first 300 matches

    browser.find_element(By.ID, "f-text").send_keys("task_79aabbe72f47")
    assert _rows(browser) == 2  # that task, strict and repair
    assert len(browser.find_elements(By.CSS_SELECTOR, "#rows tr.rec td")) == 2 * 9
    browser.find_element(By.CSS_SELECTOR, "#rows tr.rec").click()
    panels = browser.find_elements(By.CSS_SELECTOR, "#detail .traj")
    assert len(panels) == 2
    record, twin = panels[0].text, panels[1].text
    assert "served the stale index snapshot" in record
    assert "Expected: 30 days" in record and "Why S failed: freshness" in record
    assert "Clean twin" in twin and "|clean|" in twin and "stale index" not in twin
    if os.environ.get("LAYERRAG_VIEW_SCREENSHOT"):  # how docs/img/view.png is made
        browser.save_screenshot(str(SCREENSHOT))
    print(f"ready {ready_ms:.0f} ms after navigation start; {full_page.stat().st_size} bytes")


@pytest.mark.parametrize("page", ["full_page", "cases_page"])
def test_the_page_makes_no_network_request(page: str, browser: Any,
                                           request: pytest.FixtureRequest) -> None:
    path: Path = request.getfixturevalue(page)
    browser.get_log("performance")  # drop what earlier tests logged
    browser.get(path.as_uri())
    _ready(browser)
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert resources == []
    import json

    requested = [json.loads(entry["message"])["message"]["params"]["request"]["url"]
                 for entry in browser.get_log("performance")
                 if '"Network.requestWillBeSent"' in entry["message"]]
    assert requested and all(url == path.as_uri() for url in requested), requested


def test_the_cases_page_opens_an_unresolved_conversation_beside_its_clean_twin(
        cases_page: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from tests.view.page_data import packed

    conversations = packed(cases_page.read_text())
    browser.get(cases_page.as_uri())
    ready_ms = _ready(browser)
    heat = browser.find_elements(By.CSS_SELECTOR, "#heatmaps table.heat td.cell")
    assert len(heat) == 2 * 3 * 2  # arms x scenarios x (resolved, safe throughout), strict
    assert browser.find_elements(By.CSS_SELECTOR, "#tables table")
    assert f"{len(conversations)} of {len(conversations)} conversations match" in \
        browser.find_element(By.ID, "count").text

    browser.find_element(By.ID, "f-unresolved").click()
    Select(browser.find_element(By.ID, "f-scenario")).select_by_value("wrong_session")
    Select(browser.find_element(By.ID, "f-arm")).select_by_value("uncontrolled")
    wanted = [c for c in conversations if not c["resolved"] and c["scenario"] == "wrong_session"
              and c["arm"] == "uncontrolled"]
    assert browser.find_element(By.ID, "count").text.startswith(f"{len(wanted)} of ")
    assert _rows(browser) == len(wanted)
    chosen = next(c for c in wanted if any(t["memory"] == "foreign" for t in c["turns"]))
    browser.find_element(By.ID, "f-text").send_keys(chosen["case_key"])
    assert _rows(browser) == 1
    browser.find_element(By.CSS_SELECTOR, "#rows tr.rec").click()

    heads = browser.find_elements(By.CSS_SELECTOR, "#detail .conv-head")
    assert len(heads) == 2
    assert f"Conversation: {chosen['case_key']} | wrong_session" in heads[0].text
    assert f"Clean twin: {chosen['case_key']} | clean | strict | uncontrolled" in heads[1].text
    turns = browser.find_elements(By.CSS_SELECTOR, "#detail .turn")
    assert len(turns) == 2 * chosen["turn_count"]  # turn beside turn
    twin = conversations[chosen["twin"]]
    for n, (mine, clean) in enumerate(zip(turns[::2], turns[1::2], strict=True)):
        assert mine.text.startswith(f"Turn {n + 1} of")
        assert clean.text.startswith(f"Turn {n + 1} of")
        assert f"memory {chosen['turns'][n]['memory']}" in mine.text
        assert f"memory {twin['turns'][n]['memory']}" in clean.text
        assert chosen["turns"][n]["message"] in mine.text
    faulted = next(n for n, t in enumerate(chosen["turns"]) if t["fault_active"])
    mine, clean = turns[2 * faulted].text, turns[2 * faulted + 1].text
    assert "faults acted" in mine and "memory foreign" in mine and "memory own" in clean
    box = turns[2 * faulted].find_element(By.CSS_SELECTOR, "details.traj-box")
    box.find_element(By.TAG_NAME, "summary").click()  # renders on the (asynchronous) toggle
    WebDriverWait(browser, 20).until(lambda _: "Call 1: search_policies" in box.text)
    assert "wrong_session:" in box.text  # the fault's effect on the result
    if os.environ.get("LAYERRAG_VIEW_SCREENSHOT"):  # how docs/img/view-cases.png is made
        box.find_element(By.TAG_NAME, "summary").click()
        size = browser.get_window_size()
        browser.set_window_size(1400, 1400)
        browser.execute_script("document.getElementById('browser').scrollIntoView()")
        browser.save_screenshot(str(CASES_SCREENSHOT))
        browser.set_window_size(size["width"], size["height"])
    print(f"ready {ready_ms:.0f} ms after navigation start; {cases_page.stat().st_size} bytes")


def test_a_reply_s_steps_identifiers_and_claimed_type_are_shown(
        small_cases_run: Path, tmp_path: Path, browser: Any) -> None:
    """The offline agents recommend no steps; a live agent's reply may (TurnReply.steps):
    they are listed in their order, with the identifiers and the type it claims."""
    from selenium.webdriver.common.by import By

    from simulator.report.cases import cases_report_from_store
    from simulator.report.cases_conversations import Conversations, run_conversations
    from simulator.report.cases_view import build_cases_page

    run = run_conversations(small_cases_run)
    first = run.shown[0]
    turn = first.turns[0]
    assert turn.reply is not None
    reply = turn.reply.model_copy(update={
        "steps": ("Check the agent release", "Upgrade the agent", "Re-run the job"),
        "identifiers": ("FS-0142", "BKP-4102"), "answer_type": "instruct"})
    edited = first.model_copy(update={"turns": (turn.model_copy(update={
        "reply": reply, "reply_type": reply.reply_type}), *first.turns[1:])})
    page = tmp_path / "steps.html"
    page.write_text(build_cases_page(
        cases_report_from_store(small_cases_run, replicates=20), title="steps",
        conversations=Conversations(shown=[edited], total=1, turns=len(edited.turns))))
    browser.get(page.as_uri())
    _ready(browser)
    browser.find_element(By.CSS_SELECTOR, "#rows tr.rec").click()
    cell = browser.find_element(By.CSS_SELECTOR, "#detail .turn")
    steps = [li.text for li in cell.find_elements(By.CSS_SELECTOR, "ol.steps li")]
    assert steps == ["Check the agent release", "Upgrade the agent", "Re-run the job"]
    assert "Agent (instruct):" in cell.text and "claimed type: instruct" in cell.text
    assert "identifiers named: FS-0142, BKP-4102" in cell.text


def test_an_archive_page_says_why_it_has_no_browser(small_cases_run: Path, tmp_path: Path,
                                                    browser: Any) -> None:
    from selenium.webdriver.common.by import By

    from simulator.cli.main import main

    single = Path(__file__).resolve().parents[2] / "archives" / "deterministic" / \
        "enterprise_v2.jsonl.gz"
    cases = tmp_path / "cases.jsonl.gz"
    assert main(["archive", "export", str(small_cases_run), "--out", str(cases)]) == 0
    for archive, why in ((single, "keeps no trajectories"),
                         (cases, "keeps no messages, replies or trajectories")):
        page = tmp_path / f"{archive.name}.html"
        assert main(["view", str(archive), "--out", str(page), "--replicates", "20"]) == 0
        browser.get(page.as_uri())
        _ready(browser)
        assert why in browser.find_element(By.ID, "records-note").text
        assert not browser.find_element(By.ID, "filters").is_displayed()
        assert not browser.find_element(By.ID, "records").is_displayed()
        assert browser.find_elements(By.CSS_SELECTOR, "#heatmaps table.heat td.cell")
