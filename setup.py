"""Ship the rulesets and assets inside the package, for installs that are not a checkout."""

from setuptools import find_packages, setup

DATA = {"dinotable._data.rulesets": "rulesets", "dinotable._data.assets": "assets"}

setup(
    packages=[*find_packages(include=["dinotable", "dinotable.*"]), *DATA],
    package_dir=DATA,
    # The phone page (dinotable/companion/page/) is served from the package itself.
    package_data={**{name: ["**/*"] for name in DATA}, "dinotable.companion": ["page/*"]},
)
