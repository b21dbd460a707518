"""OpenVINO IR XML <-> opref."""
