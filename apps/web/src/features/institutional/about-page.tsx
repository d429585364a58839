export default function AboutPage() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 leading-relaxed">
      <h1 className="mb-6 text-3xl font-black tracking-tight">Sobre nós</h1>
      <p>
        A Passada nasceu em Fortaleza, entre um treino na Beira Mar e outro no Aterro da Praia de Iracema.
        Somos corredores do Nordeste que cansaram de usar roupas pensadas para outro clima: aqui o sol nasce
        cedo, o vento sopra forte e a sensação térmica passa dos 30 graus antes das seis da manhã.
      </p>
      <h2 className="mb-3 mt-8 text-xl font-bold">Feito para o calor</h2>
      <p>
        Nossas camisetas, regatas, shorts e leggings usam tecidos leves de secagem rápida, com proteção UV e
        costuras que não machucam nos longões. Cada peça é testada por assessorias de corrida de Fortaleza,
        Recife, Natal e Salvador antes de chegar à loja.
      </p>
      <h2 className="mb-3 mt-8 text-xl font-bold">Corrida é comunidade</h2>
      <p>
        Além da loja, apoiamos corridas de rua da região e reunimos as inscrições num só lugar, em Eventos. Do
        primeiro 5 km à maratona, queremos ver você cruzando a linha de chegada com uma Passada no peito.
      </p>
      <h2 className="mb-3 mt-8 text-xl font-bold">Produção local</h2>
      <p>
        Trabalhamos com confecções do Ceará e de Pernambuco, gerando emprego perto de casa e encurtando o
        caminho entre a fábrica e o seu treino.
      </p>
    </main>
  );
}
