"""The table's parts that are not a scene: the game without a window (`session`), what a
part may see of the table (`host`), the one registry of its parts (`registry`), what a
click means (`choice`), the parts that draw zones, cards, boards and dice from a seat's
view, reading a card large (`reading`), the display model and playback, the buttons, keys
and focus ring."""
