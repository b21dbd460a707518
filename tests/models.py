"""The model catalogue of the tests lives in benchmarks/models.py (one place builds the models for
tests and benchmarks; pytest puts the repo root on sys.path, see pyproject.toml); re-exported here
under the name the tests import."""
from benchmarks.models import *  # noqa: F401,F403
from benchmarks.models import CACHE, MODELS, SHAPES, model_path, onnx_path, random_inputs  # noqa: F401
