#!/usr/bin/env python3
"""Screenshots of HTML reports, for a reviewer to look at (not run by CI).

    tests/html/screenshots.py OUT_DIR REPORT.html...
    tests/html/screenshots.py --tiles 1100 OUT_DIR build/tests/html/samples/*.html

Writes OUT_DIR/NAME.light.png and OUT_DIR/NAME.dark.png (the whole page in
the light and the dark colour scheme, 1400 px wide); with --tiles H, the
page cut into pieces H px tall instead (NAME.light.1.png, ...), which are
easier to read at full size. The sample reports are built by ctest into
build/tests/html/samples/. Needs Chromium (Debian package chromium).
"""

import argparse
import base64
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tiles", type=int, default=0, metavar="H", help="cut each page into pieces H px tall")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("out_dir")
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    chromium = cdp.find_chromium()
    if not chromium:
        sys.exit("screenshots.py: Chromium not found (apt-get install chromium, or set LBSIM_CHROMIUM)")
    os.makedirs(args.out_dir, exist_ok=True)
    browser = cdp.Browser(chromium)
    try:
        for report in args.reports:
            name = os.path.splitext(os.path.basename(report))[0]
            url = "file://" + os.path.abspath(report)
            for scheme in ("light", "dark"):
                page = cdp.Page(browser, url, dark=scheme == "dark", width=args.width)
                problems = page.problems()
                if problems:
                    print(f"{report} ({scheme}): " + "; ".join(problems), file=sys.stderr)
                if not args.tiles:
                    path = os.path.join(args.out_dir, f"{name}.{scheme}.png")
                    page.screenshot(path)
                    print(path)
                    continue
                height = page.evaluate("document.documentElement.scrollHeight")
                for k, top in enumerate(range(0, height, args.tiles), start=1):
                    shot = browser.send(
                        "Page.captureScreenshot",
                        {
                            "format": "png",
                            "captureBeyondViewport": True,
                            "clip": {"x": 0, "y": top, "width": args.width,
                                     "height": min(args.tiles, height - top), "scale": 1},
                        },
                        session=page.session,
                    )
                    path = os.path.join(args.out_dir, f"{name}.{scheme}.{k}.png")
                    with open(path, "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
                    print(path)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
