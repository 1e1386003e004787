"""The live board: a web page that shows a game as it is played."""
