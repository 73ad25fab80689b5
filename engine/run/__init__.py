"""A run's life: writing trajectories (runner), planning (planner), what it cost (accounting),
how it reports progress, and its manifest."""
