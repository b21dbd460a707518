"""opref's benchmarks: `python -m benchmarks [models|ops|overhead] [--quick] [--threads N] ...`.

Kept free of imports: `python -m benchmarks` limits NumPy's BLAS threads before numpy is imported."""
