"""The fair deck: commit-reveal dice and the mental-poker (SRA-masked) wall."""
