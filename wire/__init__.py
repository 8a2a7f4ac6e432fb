"""The wire: what the device and the league's receiver both speak — signed items, serial frames, answers."""
