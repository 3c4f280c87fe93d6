"""The course skeleton's modules (`Grid`, `BaseAI`, `Utils`), written for the
arena with the API course players call. The course host puts this folder
on sys.path (after the player's own folder), so `from Grid import Grid`
finds them by bare name."""
