"""Readers turn (question, evidence) into an AgentAnswer."""
