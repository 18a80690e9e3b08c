"""The table's parts that are not a scene: what a click means (choice) and the widgets that
draw zones, cards and boards from a seat's view."""
