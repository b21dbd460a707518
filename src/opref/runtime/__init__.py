"""WHAT an op computes: kernels, and running single ops and graphs."""
from .ops import infer_op, run_op

__all__ = ["infer_op", "run_op"]
