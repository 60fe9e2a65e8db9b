"""Ways to use the faults outside layerrag's own agent.

- :mod:`.langchain_agent`: ``FaultInjectionMiddleware``, a LangChain ``AgentMiddleware`` for
  any ``create_agent`` agent (fault plan per run in ``context``);
- :mod:`.langchain_tools`: the endpoints of a PolicyEnvironment as LangChain tools;
- :mod:`.plain_tool`: ``with_faults``, a wrapper around any plain tool callable;
- :mod:`.scripted_model`: a deterministic chat model for offline agent tests and examples.
"""
