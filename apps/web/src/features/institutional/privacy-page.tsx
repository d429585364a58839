import { COMPANY } from '@passada/core/company';
import { PCD_CONSENT, WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../../lib/config-api.ts';

/**
 * What the shop keeps, why and for how long: the same table as docs/operations.md ("Personal data
 * kept and for how long"), in the words of the people it is about. Change both together.
 */
const DATA_KEPT: Array<{ what: string; why: string; howLong: string }> = [
  {
    what: 'Conta: nome, e-mail, CPF, telefone, data de nascimento e senha (guardada cifrada)',
    why: 'Entrar na loja, comprar e acompanhar pedidos (execução do contrato)',
    howLong: 'Enquanto a conta existir; ao excluí-la, os dados da conta são anonimizados',
  },
  {
    what: 'Endereços de entrega',
    why: 'Entregar os pedidos',
    howLong: 'Enquanto a conta existir',
  },
  {
    what: 'Pedidos: comprador, itens, endereço e valores',
    why: 'Obrigações fiscais e do Código de Defesa do Consumidor',
    howLong:
      'Pelo prazo legal: 5 anos contados a partir do ano seguinte ao da compra, mesmo após a exclusão da conta; depois, nome, CPF, e-mail, telefone e endereço são apagados automaticamente (ficam só os itens e valores)',
  },
  {
    what: 'Inscrições em corridas: nome, CPF, nascimento, gênero, telefone, e-mail, endereço e contato de emergência',
    why: 'Realizar o evento (retirada do kit, cronometragem, seguro)',
    howLong:
      'Pelo prazo legal: 5 anos contados a partir do ano seguinte ao do evento, mesmo após a exclusão da conta; depois, os dados pessoais são apagados automaticamente (ficam só a categoria, o tamanho da camisa, o ano de nascimento e os valores)',
  },
  {
    what: 'Informação de pessoa com deficiência (PCD), dado de saúde',
    why: 'A categoria PCD e a acessibilidade do evento, com o seu consentimento específico',
    howLong: 'Apagada automaticamente 30 dias após o fim do evento; só a organização do evento a vê',
  },
  {
    what: 'Lista de espera de uma categoria esgotada: nome, CPF e e-mail',
    why: 'Oferecer a você, na ordem da fila, uma vaga que for liberada',
    howLong: 'Apagada automaticamente 30 dias após o fim do evento, ou quando você excluir a sua conta',
  },
  {
    what: 'Transferência de inscrição: nome e e-mail de quem transfere; nome, CPF e e-mail de quem recebe',
    why: 'Passar a inscrição à nova pessoa, que conclui com os próprios dados',
    howLong:
      'CPF e e-mails apagados automaticamente 30 dias após o fim do evento (o histórico da inscrição guarda só os nomes)',
  },
  {
    what: 'Inscrição no sorteio de vagas de uma corrida: nome, CPF, e-mail e data de nascimento',
    why: 'Realizar o sorteio, avisar o resultado e deixar só quem foi sorteado pagar a inscrição',
    howLong:
      'Apagados automaticamente 30 dias após o fim do evento, ou quando você excluir a sua conta (antes do sorteio, a inscrição no sorteio sai dele; depois, só o número da inscrição fica na classificação pública)',
  },
  {
    what: 'Consentimento para mensagens no WhatsApp (versão do texto e data)',
    why: 'Enviar o código Pix, a confirmação, lembretes e atualizações da entrega, só a quem pediu',
    howLong: 'Junto com o pedido ou a inscrição em que foi dado',
  },
  {
    what: 'Pedido para parar as mensagens no WhatsApp (o número, a palavra enviada ou como você pediu à loja, e a data)',
    why: 'Provar que o consentimento foi revogado e não enviar mais nada a esse número',
    howLong: 'Enquanto guardarmos algum consentimento desse número',
  },
  {
    what: 'Dados de pagamentos não concluídos (nome, e-mail, CPF, telefone, endereço)',
    why: 'Concluir um pagamento que chegue atrasado',
    howLong: 'Até um dia depois do prazo do pagamento',
  },
  {
    what: 'Registro de cada mensagem enviada (só o endereço ou número de destino)',
    why: 'Saber se a mensagem saiu e por que falhou',
    howLong: '180 dias',
  },
  {
    what: 'Tentativas de entrada erradas e contadores de abuso (e-mail e endereço IP)',
    why: 'Proteger as contas contra adivinhação de senha',
    howLong: '1 dia',
  },
  {
    what: 'Sessões, links de recuperação e navegadores confiáveis',
    why: 'Manter você conectado com segurança e recuperar o acesso',
    howLong: 'De 30 a 180 dias após vencerem ou deixarem de ser usados',
  },
  {
    what: 'Avisos de segurança (endereço para onde foram)',
    why: 'Avisar quando o e-mail ou a senha da conta mudam',
    howLong: '180 dias',
  },
  {
    what: 'Cópias de segurança',
    why: 'Recuperar a loja depois de uma falha',
    howLong: '7 diárias e 4 semanais',
  },
];

/** /privacidade: the data the shop keeps, why, for how long, the rights and the encarregado's contact. */
export default function PrivacyPage() {
  const officer = useQuery(publicConfigQuery).data?.encarregado;
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 leading-relaxed">
      <h1 className="mb-6 text-3xl font-black tracking-tight">Privacidade</h1>
      <p>
        A {COMPANY.legalName} (CNPJ {COMPANY.cnpj}) trata os seus dados pessoais conforme a Lei Geral de
        Proteção de Dados (Lei 13.709/2018). Guardamos só o que a loja e as corridas precisam, pelo tempo que
        precisam.
      </p>
      <h2 className="mb-3 mt-8 text-xl font-bold">O que guardamos, por quê e por quanto tempo</h2>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Dados pessoais guardados pela loja</caption>
          <thead>
            <tr className="border-b border-stone-300 dark:border-stone-700">
              <th scope="col" className="py-2 pr-4">
                Dado
              </th>
              <th scope="col" className="py-2 pr-4">
                Para quê
              </th>
              <th scope="col" className="py-2">
                Por quanto tempo
              </th>
            </tr>
          </thead>
          <tbody>
            {DATA_KEPT.map((row) => (
              <tr key={row.what} className="border-b border-stone-200 align-top dark:border-stone-800">
                <td className="py-2 pr-4">{row.what}</td>
                <td className="py-2 pr-4">{row.why}</td>
                <td className="py-2">{row.howLong}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 className="mb-3 mt-8 text-xl font-bold">Consentimentos</h2>
      <p>Pedimos o seu consentimento à parte, e guardamos a versão do texto aceito e a data:</p>
      <ul className="mt-2 list-disc pl-6">
        <li>WhatsApp: “{WHATSAPP_CONSENT.text}”</li>
        <li>PCD: “{PCD_CONSENT.text}”</li>
      </ul>
      <h2 className="mb-3 mt-8 text-xl font-bold">Seus direitos</h2>
      <p>
        Você pode pedir a confirmação e o acesso aos seus dados, a correção, a portabilidade, a exclusão e a
        revogação de um consentimento (art. 18 da LGPD). Para parar as mensagens no WhatsApp, responda PARAR a
        qualquer uma delas, ou peça à loja pelo contato que preferir. Se depois você marcar de novo a opção de
        receber pelo WhatsApp numa compra ou inscrição, as mensagens dela voltam a ser enviadas. Excluir a
        conta está em “Minha conta”; os demais pedidos, fale com o encarregado. Se houver um incidente de
        segurança que possa afetar você, avisaremos você e a ANPD.
      </p>
      <h2 className="mb-3 mt-8 text-xl font-bold">Encarregado pelo tratamento de dados</h2>
      {officer ? (
        <p>
          {officer.nome}:{' '}
          <a href={`mailto:${officer.email}`} className="underline">
            {officer.email}
          </a>
        </p>
      ) : (
        <p>Carregando…</p>
      )}
    </main>
  );
}
