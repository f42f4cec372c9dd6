"""The packages to install, found by setuptools rather than listed by hand.

Each code folder installs under the one import name ``fourwinds`` (pyproject.toml's
package-dir: ``protocol/`` -> ``fourwinds.protocol``, ...), which plain ``packages.find``
cannot express. So each folder is searched on its own and what is found is prefixed with the
folder's installed name: a new sub-package (a folder with an ``__init__.py``) installs without
an edit. A folder of data only (the web page's ``static/``) is a package too, so that
setuptools installs its files as package data and does not warn that it is left out.
Everything else (name, version, dependencies, package data) is in pyproject.toml.
"""

from __future__ import annotations

from setuptools import find_namespace_packages, setup

FOLDERS = {
    "fourwinds.protocol": "protocol",
    "fourwinds.daemon": "daemon",
    "fourwinds.frontends": "frontends",
    "fourwinds.cards": "cards",
}
"""Each installed package name and the folder it is read from (as in pyproject.toml's
package-dir; tests/test_layout.py checks that they agree)."""


def installed_packages() -> list[str]:
    """Every package the wheel holds: each folder, and every folder under it but caches."""
    found = []
    for name, folder in FOLDERS.items():
        found.append(name)
        found += [
            f"{name}.{sub}"
            for sub in find_namespace_packages(folder, exclude=["*__pycache__*", "__pycache__"])
        ]
    return sorted(found)


if __name__ == "__main__":
    setup(packages=installed_packages())
