"""Several server processes on one Redis (real processes)."""
