"""Exploration: engine timelines (Chrome trace-event JSON), design-space sweeps on Ray, plots and
HTML reports (``docs/explore.md``). Imports core, compiler, sim, firmware and boards; never the CLI."""
