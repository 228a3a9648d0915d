//! Work in progress on its own branch.
