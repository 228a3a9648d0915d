//! Unit tests: one per rule and decision of `rules/ants.md`.
