import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Daily sales, shop and registrations stacked; loaded only by the dashboard (its own chunk). */
export default function SalesChart({ days }: { days: { dia: string; loja: number; inscricoes: number }[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: days.map((d) => `${d.dia.slice(8, 10)}/${d.dia.slice(5, 7)}`),
        datasets: [
          { label: 'Loja', data: days.map((d) => d.loja), backgroundColor: '#ff6b57', stack: 'vendas' },
          {
            label: 'Inscrições',
            data: days.map((d) => d.inscricoes),
            backgroundColor: '#2563eb',
            stack: 'vendas',
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { y: { ticks: { callback: (v) => brl.format(Number(v)) } } },
        plugins: {
          tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${brl.format(Number(c.raw))}` } },
        },
      },
    });
    return () => chart.destroy();
  }, [days]);
  return (
    <div className="h-64">
      <canvas ref={canvas} role="img" aria-label="Vendas por dia nos últimos 30 dias" />
    </div>
  );
}
