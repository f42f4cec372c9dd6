"""The table protocol: four equal seats run one deterministic session."""
