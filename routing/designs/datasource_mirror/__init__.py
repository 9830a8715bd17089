"""Design `datasource_mirror` (factory): canonicalised query vs an enriched vector index, by layers."""
from .router import MirrorFields, MirrorRouter, build

__all__ = ["MirrorFields", "MirrorRouter", "build"]
