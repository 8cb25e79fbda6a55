import { Box, Text } from "ink";
import { Component, type ReactNode } from "react";

interface State {
  error?: Error;
}

/** A rendering fault shows as a message in place of the screen, never as a crash of the terminal UI. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: unknown }, State> {
  state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidUpdate(previous: { resetKey?: unknown }) {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: undefined });
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Box flexDirection="column">
        <Text color="red">{`✗ this screen failed: ${this.state.error.message}`}</Text>
        <Text dimColor>tab switches screens · esc goes back · ctrl-c quits</Text>
      </Box>
    );
  }
}
