"""Items coming in: the receiver's one decision, the serial listener, backlog imports, a gateway's forwarding."""
