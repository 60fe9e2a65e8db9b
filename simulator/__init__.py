"""layerrag simulator: corpus, retrieval, endpoints, agent, readers, scoring, runs, reports."""

__version__ = "0.1.0"
