"""The LangGraph agent: retrieve, contract, policy gate, generate."""
