"""Helpers only the tests use (model builders, reference-runtime workers); importable as
``support.<module>`` because ``tests/conftest.py`` puts ``tests/`` on ``sys.path``."""
