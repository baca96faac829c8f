"""A student alpha-beta that prunes on a tie (<= where CS188 has <): the right values, but
it skips positions the textbook generates."""

import math


def minimax(game, state, depth):
    def value(state, depth, ply):
        if game.status(state) is not None:
            return game.utility(state, ply), None
        if depth == 0:
            return game.evaluate(state), None
        maximizing = game.to_move(state) == 0
        best, best_move = (-math.inf if maximizing else math.inf), None
        for move in game.moves(state):
            v, _ = value(game.play(state, move), depth - 1, ply + 1)
            if (v > best) if maximizing else (v < best):
                best, best_move = v, move
        return best, best_move

    return value(state, depth, 0)


def alphabeta(game, state, depth):
    def value(state, depth, alpha, beta, ply):
        if game.status(state) is not None:
            return game.utility(state, ply), None
        if depth == 0:
            return game.evaluate(state), None
        maximizing = game.to_move(state) == 0
        best, best_move = (-math.inf if maximizing else math.inf), None
        for move in game.moves(state):
            v, _ = value(game.play(state, move), depth - 1, alpha, beta, ply + 1)
            if maximizing:
                if v > best:
                    best, best_move = v, move
                if best >= beta:  # the mistake: prunes on a tie
                    return best, best_move
                alpha = max(alpha, best)
            else:
                if v < best:
                    best, best_move = v, move
                if best <= alpha:  # the mistake: prunes on a tie
                    return best, best_move
                beta = min(beta, best)
        return best, best_move

    return value(state, depth, -math.inf, math.inf, 0)
