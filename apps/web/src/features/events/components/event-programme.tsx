/** The race-day programme (docs/product.md §9). */
const programme = [
  ['Concentração', '5:15'],
  ['Aquecimento', '5:35'],
  ['Largada', '6:00'],
  ['Premiação', '7:15'],
  ['Encerramento', '8:00'],
] as const;

export function EventProgramme() {
  return (
    <section aria-labelledby="programacao" className="mt-8">
      <h2 id="programacao" className="text-xl font-bold">
        Programação
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
        {programme.map(([label, time]) => (
          <div key={label} className="contents">
            <dt className="font-semibold">{label}</dt>
            <dd>{time}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
