"""Maps the top-level folders into the single import name ``nnaccel``.

``nnaccel/`` is the core; ``hw/``, ``compiler/``, ``sim/``, ``firmware/`` and ``boards/`` become
``nnaccel.hw`` … ``nnaccel.boards``, ``explore/`` ``nnaccel.explore``. Every sub-package is listed so that ``pip install .`` and
``pip install -e .`` install the same tree.
"""

from pathlib import Path

from setuptools import find_packages, setup

ROOTS = {"nnaccel": "nnaccel", "nnaccel.hw": "hw", "nnaccel.compiler": "compiler",
         "nnaccel.sim": "sim", "nnaccel.firmware": "firmware", "nnaccel.boards": "boards",
         "nnaccel.explore": "explore"}

packages, package_dir = [], {}
for name, folder in ROOTS.items():
    if not (Path(folder) / "__init__.py").exists():
        continue
    package_dir[name] = folder
    packages.append(name)
    for sub in find_packages(folder):
        packages.append(f"{name}.{sub}")
        package_dir[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"

setup(packages=packages, package_dir=package_dir)
