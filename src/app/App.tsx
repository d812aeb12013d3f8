export function App() {
  return (
    <main>
      <h1>Benchlens</h1>
      <p>Drop a benchmark folder to score it.</p>
    </main>
  );
}
