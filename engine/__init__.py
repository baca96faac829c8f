"""Alpha-Beta Arcade's search engine: games, minimax / alpha-beta search, agents, arena.

Pure Python; imports nothing of the web app.
"""
