#!/usr/bin/env python3
"""Opens every sample HTML report in headless Chromium and checks it.

    browser_test.py SAMPLES_DIR EXPECTATIONS.json

For each sample named in EXPECTATIONS.json (built by ctest into
SAMPLES_DIR), in the light and the dark colour scheme:
  - nothing goes wrong: no console error, no exception, no error in the
    log (a blocked load is one), no failed load, and no request at all
    but the page itself (the report is self-contained);
  - no script element, every link an in-page anchor that resolves;
  - every chart (svg.chart) is drawn (has a size) and has a non-empty
    <title> and <desc> (its text alternative);
  - the charts of each kind the expectations name are there, as many as
    named, and the rendered text holds every expected text;
  - the colour scheme shows: the page background differs between light
    and dark; printing hides the navigation and the number tables;
  - at 800 px and at a phone's 390 px: the page itself does not scroll
    sideways (only a figure or a table may), every chart's text is drawn
    at 9 px or more, and a file path in a table breaks only after a '/'.
Exits 0 when every check holds, 1 naming each that does not, and 77
(ctest's skip) when Chromium is not installed.
"""

import json
import os
import pathlib
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

SKIP = 77

# What the page shows about itself, gathered in the browser.
PROBE = r"""
(() => {
  const charts = [...document.querySelectorAll('svg.chart')];
  const kinds = {};
  for (const c of charts) {
    const k = c.getAttribute('data-chart');
    kinds[k] = (kinds[k] || 0) + 1;
  }
  const bad = [];
  for (const c of charts) {
    const box = c.getBoundingClientRect();
    const title = c.querySelector(':scope > title');
    const desc = c.querySelector(':scope > desc');
    const name = c.id || '(no id)';
    if (!(box.width > 50 && box.height > 50)) bad.push(`${name}: drawn ${box.width}x${box.height}`);
    if (!title || !title.textContent.trim()) bad.push(`${name}: no <title>`);
    if (!desc || !desc.textContent.trim()) bad.push(`${name}: no <desc>`);
    if (c.getAttribute('role') !== 'img') bad.push(`${name}: role is not img`);
  }
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (!href.startsWith('#')) bad.push(`link out of the page: ${href}`);
    else if (!document.getElementById(href.slice(1))) bad.push(`link to nothing: ${href}`);
  }
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dup.length) bad.push(`repeated ids: ${[...new Set(dup)].join(', ')}`);
  const loads = [...document.querySelectorAll('[src], link[href], object, embed, iframe, img, image, use')];
  if (loads.length) bad.push(`elements that load: ${loads.map(e => e.outerHTML.slice(0, 80)).join('; ')}`);
  return {
    title: document.title,
    scripts: document.querySelectorAll('script').length,
    kinds,
    bad,
    text: document.body.innerText,
    background: getComputedStyle(document.body).backgroundColor,
    width: document.documentElement.scrollWidth,
  };
})()
"""

# What a narrow window shows: sideways scrolling, the smallest chart text,
# paths broken inside a name.
NARROW_PROBE = r"""
(() => {
  const bad = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1)
    bad.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${window.innerWidth}`);
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    const view = svg.viewBox.baseVal;
    if (!view || !view.width || !box.width) continue;
    let smallest = Infinity;
    for (const t of svg.querySelectorAll('text'))
      smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * box.width / view.width);
    if (smallest < 8.95)
      bad.push(`${svg.id}: text drawn at ${smallest.toFixed(1)} px`);
  }
  for (const code of document.querySelectorAll('td code, th code')) {
    const text = code.textContent;
    if (!text.includes('/')) continue;
    const range = document.createRange();
    let top = null, at = 0;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; ++i, ++at) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (top !== null && rect.top > top + 2 && text[at - 1] !== '/' && text[at] !== '/')
          bad.push(`path broken inside a name: ${text.slice(0, at)} | ${text.slice(at)}`);
        top = rect.top;
      }
    }
  }
  return bad;
})()
"""

PRINT_PROBE = r"""
(() => {
  const nav = document.querySelector('nav');
  return {
    nav: nav ? getComputedStyle(nav).display : 'missing',
    details: [...document.querySelectorAll('details')].map(d => getComputedStyle(d).display),
  };
})()
"""


def check_sample(browser, path, expect, failures):
    url = pathlib.Path(os.path.abspath(path)).as_uri()  # percent-encoded, as Chromium reports it
    name = os.path.basename(path)
    backgrounds = {}
    for scheme in ("light", "dark"):
        page = cdp.Page(browser, url, dark=scheme == "dark")
        where = f"{name} ({scheme})"
        # Sorted: events come in no fixed order.
        for problem in sorted(page.problems()):
            failures.append(f"{where}: {problem}")
        facts = page.evaluate(PROBE)
        backgrounds[scheme] = facts["background"]
        for bad in facts["bad"]:
            failures.append(f"{where}: {bad}")
        if facts["scripts"]:
            failures.append(f"{where}: {facts['scripts']} script elements")
        if expect.get("title") and facts["title"] != expect["title"]:
            failures.append(f"{where}: title {facts['title']!r}, expected {expect['title']!r}")
        for kind, count in expect.get("charts", {}).items():
            got = facts["kinds"].get(kind, 0)
            if got != count:
                failures.append(f"{where}: {got} charts of kind {kind}, expected {count}")
        for kind in facts["kinds"]:
            if kind not in expect.get("charts", {}):
                failures.append(f"{where}: unexpected charts of kind {kind}")
        for text in expect.get("text", []):
            if text not in facts["text"]:
                failures.append(f"{where}: the page does not show {text!r}")
        for text in expect.get("absent", []):
            if text in facts["text"]:
                failures.append(f"{where}: the page shows {text!r}")
        if scheme == "light":
            browser.send(
                "Emulation.setEmulatedMedia", {"media": "print"}, session=page.session
            )
            printed = page.evaluate(PRINT_PROBE)
            if printed["nav"] == "missing":
                failures.append(f"{where}: no navigation")
            elif printed["nav"] != "none":
                failures.append(f"{where}: printing shows the navigation")
            if any(d != "none" for d in printed["details"]):
                failures.append(f"{where}: printing shows the number tables")
    for width in (800, 390):
        page = cdp.Page(browser, url, width=width, height=900)
        for bad in page.evaluate(NARROW_PROBE):
            failures.append(f"{name} ({width} px): {bad}")
    if backgrounds["light"] == backgrounds["dark"]:
        failures.append(f"{name}: the same background in light and dark mode ({backgrounds['light']})")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    samples_dir, expectations_path = sys.argv[1], sys.argv[2]
    chromium = cdp.find_chromium()
    if not chromium:
        print("SKIPPED: Chromium not found (apt-get install chromium, or set LBSIM_CHROMIUM)")
        return SKIP
    with open(expectations_path) as f:
        expectations = json.load(f)
    failures = []
    browser = cdp.Browser(chromium)
    try:
        for name, expect in expectations.items():
            path = os.path.join(samples_dir, name)
            if not os.path.exists(path):
                failures.append(f"{name}: no such sample in {samples_dir}")
                continue
            try:
                check_sample(browser, path, expect, failures)
            except cdp.BrowserError as e:
                failures.append(f"{name}: browser: {e}")
    finally:
        browser.close()
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"browser test: {len(expectations)} samples, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
